package io.timeservice.config;

import javax.sql.DataSource;

import io.timeservice.model.CronParser;
import io.timeservice.store.ClockStore;
import io.timeservice.store.FlowKeyStore;
import io.timeservice.store.DeliveryStore;
import io.timeservice.store.MeasuredDeliveryStore;
import io.timeservice.store.MeasuredTimerStore;
import io.timeservice.store.QueueInspector;
import io.timeservice.store.ScheduleStore;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.TimerStore;
import io.timeservice.store.postgres.PostgresClockStore;
import io.timeservice.store.postgres.PostgresFlowKeyStore;
import io.timeservice.store.postgres.PostgresDeliveryStore;
import io.timeservice.store.postgres.PostgresFiringLoop;
import io.timeservice.store.postgres.PostgresQueueInspector;
import io.timeservice.store.postgres.PostgresScheduleStore;
import io.timeservice.store.postgres.PostgresStore;
import io.timeservice.store.postgres.PostgresTimerStore;
import io.timeservice.store.postgres.TransactionPooling;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The PostgreSQL store, with {@code timeservice.store=postgresql} only: Boot's DataSource (HikariCP, from
 * {@code spring.datasource.*}) and Flyway (migrating the store's schema from the jar before the store opens) are
 * let in by {@link StoreAutoConfigurationFilter}. The controllers use it through the store interfaces below (see
 * docs/POSTGRES-STORE.md for what it does not have yet).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = StoreAutoConfigurationFilter.PROPERTY, havingValue = "postgresql")
class PostgresStoreConfiguration {

    /**
     * The store's migrations, wherever else Flyway is pointed, with the settings they need; over
     * {@code timeservice.postgresql.direct-url} when it is set (Flyway's lock is a session's, which a pooler in
     * transaction mode does not keep).
     */
    @Bean
    FlywayConfigurationCustomizer timeserviceMigrations(TimeServiceProperties properties, Environment environment) {
        return configuration -> {
            configuration.locations(PostgresStore.MIGRATIONS).configuration(PostgresStore.FLYWAY_SETTINGS);
            if (properties.postgresql().pooled()) {
                DirectConnection.of(properties.postgresql().directUrl(), environment).migrateThrough(configuration);
            }
        };
    }

    /** Opened after Flyway has migrated the schema: Boot orders beans marked so after the database's initializers. */
    @Bean
    @DependsOnDatabaseInitialization
    PostgresStore postgresStore(DataSource dataSource, TimeServiceProperties properties, StoreMetrics metrics,
                                CronParser cronParser, Environment environment) {
        TimeServiceProperties.Postgresql postgresql = properties.postgresql();
        if (postgresql.pooled()) {
            TransactionPooling.requireNoServerPreparedStatements(dataSource, "spring.datasource.url");
        }
        PostgresStore store = PostgresStore.open(dataSource, properties.capacity(),
                properties.capacityBytes().toBytes(), properties.clocks().max(),
                properties.clock().mode(), metrics, postgresql.timeouts(),
                new PostgresStore.Schedules(cronParser, properties.schedules().max(),
                        properties.schedules().maxCatchUp()));
        store.limitDeliveries(properties.deliveries().max());
        store.limitReservations(properties.dedupe().maxReservations());
        if (postgresql.pooled()) {
            store.startWakeups(PostgresStore.DEFAULT_SLOW_POLL,
                    DirectConnection.of(postgresql.directUrl(), environment).dataSource());
        } else {
            store.startWakeups(PostgresStore.DEFAULT_SLOW_POLL);
        }
        store.startFiring(new PostgresFiringLoop.Settings(postgresql.slowPoll(), properties.firing().roundSize(),
                postgresql.ackedRetention(), postgresql.samplePeriod()));
        return store;
    }

    /**
     * The {@code store} health component, in the readiness group: DOWN while the database cannot be reached (every
     * call then answers 503 {@code storage_unavailable}), UP again by itself when it is back. It asks the database
     * itself: a busy clock (a lock timeout) answers 503 too but leaves it UP.
     */
    @Bean
    HealthIndicator storeHealthIndicator(PostgresStore store) {
        return () -> (store.reachable() ? Health.up() : Health.down().withDetail("failure",
                "the database cannot be reached; calls answer storage_unavailable until it is back"))
                .withDetail("store", "postgresql").build();
    }

    @Bean
    ClockStore clockStore(PostgresStore store) {
        return new PostgresClockStore(store);
    }

    /** Refuses every call until the PostgreSQL store keeps flow control (issue 44). */
    @Bean
    FlowKeyStore flowKeyStore() {
        return new PostgresFlowKeyStore();
    }

    /** Timed and counted as the memory store's scheduler times and counts its calls (the same meters). */
    @Bean
    TimerStore timerStore(PostgresStore store, StoreMetrics metrics) {
        return new MeasuredTimerStore(new PostgresTimerStore(store), metrics);
    }

    @Bean
    ScheduleStore scheduleStore(PostgresStore store) {
        return new PostgresScheduleStore(store);
    }

    @Bean
    DeliveryStore deliveryStore(PostgresStore store, StoreMetrics metrics) {
        return new MeasuredDeliveryStore(new PostgresDeliveryStore(store), metrics);
    }

    @Bean
    QueueInspector queueInspector(PostgresStore store, TimeServiceProperties properties) {
        return new PostgresQueueInspector(store, properties.heap().arity());
    }
}
