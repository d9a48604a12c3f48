package io.timeservice.config;

import javax.sql.DataSource;

import io.timeservice.store.postgres.PostgresStore;
import io.timeservice.store.postgres.StoredClock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The PostgreSQL store, with {@code timeservice.store=postgresql} only: Boot's DataSource (HikariCP, from
 * {@code spring.datasource.*}) and Flyway (migrating the store's schema from the jar before the store opens) are
 * let in by {@link StoreAutoConfigurationFilter}. Not yet behind the controllers: they still serve the memory store
 * (see docs/POSTGRES-STORE.md).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = StoreAutoConfigurationFilter.PROPERTY, havingValue = "postgresql")
class PostgresStoreConfiguration {

    /** The store's migrations, wherever else Flyway is pointed. */
    @Bean
    FlywayConfigurationCustomizer timeserviceMigrations() {
        return configuration -> configuration.locations(PostgresStore.MIGRATIONS);
    }

    /** Opened after Flyway has migrated the schema: Boot orders beans marked so after the database's initializers. */
    @Bean
    @DependsOnDatabaseInitialization
    PostgresStore postgresStore(DataSource dataSource, TimeServiceProperties properties) {
        return PostgresStore.open(dataSource, properties.capacity(), properties.capacityBytes().toBytes(),
                properties.clocks().max(), StoredClock.Mode.VIRTUAL);
    }
}
