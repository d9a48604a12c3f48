package io.timeservice.config;

import java.util.Locale;

import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Keeps Boot's JDBC and Flyway auto-configurations (DataSource, HikariCP, JdbcTemplate, transaction manager,
 * migrations, their health and metrics) out of the context unless {@code timeservice.store=postgresql}. The jar
 * carries the PostgreSQL driver, HikariCP and Flyway for that store, and Boot would otherwise try to configure a
 * DataSource from them and stop the start-up for lack of a URL; the memory store, the default, needs no database.
 *
 * <p>Registered in {@code META-INF/spring.factories}; Boot consults it while it selects auto-configurations, before
 * any of their conditions are evaluated, so the excluded ones leave no trace (nor a condition report entry that
 * could be mistaken for a failure). Chosen over {@code spring.autoconfigure.exclude}, which one property file would
 * have to set and every PostgreSQL deployment unset again.
 */
public final class StoreAutoConfigurationFilter implements AutoConfigurationImportFilter, EnvironmentAware {

    public static final String PROPERTY = "timeservice.store";

    /** The packages of the auto-configurations only the PostgreSQL store uses (Boot 4 module layout). */
    private static final String[] DATABASE_PACKAGES = {
        "org.springframework.boot.jdbc.autoconfigure.",
        "org.springframework.boot.flyway.autoconfigure.",
    };

    private Environment environment;

    /** Where timers live: {@code timeservice.store}. */
    public enum Store {
        MEMORY, POSTGRESQL;

        /** The store a property value names, in any case; stops start-up naming the property otherwise. */
        static Store named(String value) {
            try {
                return valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(PROPERTY + " must be memory or postgresql, got " + value);
            }
        }
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public boolean[] match(String[] autoConfigurationClasses, AutoConfigurationMetadata metadata) {
        boolean database = Store.named(environment.getProperty(PROPERTY, "memory")) == Store.POSTGRESQL;
        boolean[] matches = new boolean[autoConfigurationClasses.length];
        for (int i = 0; i < autoConfigurationClasses.length; i++) {
            matches[i] = database || !isDatabaseAutoConfiguration(autoConfigurationClasses[i]);
        }
        return matches;
    }

    private static boolean isDatabaseAutoConfiguration(String className) {
        if (className == null) { // Boot passes null for candidates an earlier filter removed
            return false;
        }
        for (String prefix : DATABASE_PACKAGES) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
