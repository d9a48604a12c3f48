package io.timeservice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * {@code timeservice.postgresql.direct-url}: Flyway migrates over it instead of the pooled URL, and the listener's
 * data source connects there, with the pool's credentials.
 */
class DirectConnectionTest {

    private static final String POOLED = "jdbc:postgresql://127.0.0.1:6432/timers?prepareThreshold=0";
    private static final String DIRECT = "jdbc:postgresql://db1:5432,db2:5432/timers?targetServerType=primary";

    @Test
    void withADirectUrl_flywayMigratesOverIt_withThePoolsCredentials() {
        FluentConfiguration flyway = migrations(Map.of("timeservice.postgresql.direct-url", DIRECT));

        assertThat(flyway.getUrl()).isEqualTo(DIRECT);
        assertThat(flyway.getUser()).isEqualTo("timers");
        assertThat(flyway.getPassword()).isEqualTo("secret");
        assertThat(flyway.getLocations()).extracting(Object::toString).containsExactly("classpath:db/timeservice");
    }

    @Test
    void withoutOne_flywayKeepsWhatBootGaveIt() {
        FluentConfiguration flyway = migrations(Map.of());

        assertThat(flyway.getUrl()).isNull();
        assertThat(flyway.getLocations()).extracting(Object::toString).containsExactly("classpath:db/timeservice");
    }

    @Test
    void theListenersDataSource_connectsToTheDirectUrl_withThePoolsCredentials() throws Exception {
        PGSimpleDataSource listener = (PGSimpleDataSource) DirectConnection.of(DIRECT, environment(Map.of()))
                .dataSource();

        assertThat(listener.getURL()).startsWith("jdbc:postgresql://db1:5432,db2:5432/timers?");
        assertThat(listener.getProperty("targetServerType")).isEqualTo("primary");
        assertThat(listener.getUser()).isEqualTo("timers");
        assertThat(listener.getPassword()).isEqualTo("secret");
        assertThat(DirectConnection.of(DIRECT, environment(Map.of()))).hasToString("DirectConnection[" + DIRECT + "]");
    }

    private static FluentConfiguration migrations(Map<String, Object> settings) {
        StandardEnvironment environment = environment(settings);
        TimeServiceProperties properties = new Binder(ConfigurationPropertySources.from(
                environment.getPropertySources())).bindOrCreate("timeservice", TimeServiceProperties.class);
        FluentConfiguration flyway = new FluentConfiguration();
        new PostgresStoreConfiguration().timeserviceMigrations(properties, environment).customize(flyway);
        return flyway;
    }

    private static StandardEnvironment environment(Map<String, Object> settings) {
        StandardEnvironment environment = new StandardEnvironment();
        Map<String, Object> all = new java.util.HashMap<>(settings);
        all.put("spring.datasource.url", POOLED);
        all.put("spring.datasource.username", "timers");
        all.put("spring.datasource.password", "secret");
        environment.getPropertySources().addFirst(new MapPropertySource("test", all));
        return environment;
    }
}
