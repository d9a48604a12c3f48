package io.timeservice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.timeservice.TimeServiceApplication;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Limits;
import io.timeservice.model.Trace;
import io.timeservice.push.Pusher;
import io.timeservice.store.ClockStore;
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.journal.JournalStore;
import io.timeservice.store.postgres.PostgresStore;
import io.timeservice.store.postgres.TestDatabase;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfoService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code timeservice.store} decides whether the database exists for the service at all: the memory store (the
 * default) starts with no database configured and without Boot's DataSource or Flyway; the PostgreSQL store gets
 * a pooled DataSource from {@code spring.datasource.*} and its schema migrated by Flyway before it opens, and its
 * limits from the properties.
 */
class StoreSelectionTest {

    private static SpringApplicationBuilder app() {
        return new SpringApplicationBuilder(TimeServiceApplication.class);
    }

    @Test
    void theMemoryStore_startsWithoutAnyDatabase() {
        try (ConfigurableApplicationContext context = app().run("--server.port=0",
                "--timeservice.durability=none")) {
            assertThat(context.getBeanNamesForType(DataSource.class)).isEmpty();
            assertThat(context.getBeanNamesForType(Flyway.class)).isEmpty();
            assertThat(context.getBeanNamesForType(PostgresStore.class)).isEmpty();
            assertThat(context.getBean(ClockRegistry.class).count()).isEqualTo(1);
            assertThat(context.getBean(Pusher.class).settlesOnAnswer()).as("no call of this store waits for I/O")
                    .isTrue();
        }
    }

    @Test
    void theMemoryStoreWithItsJournal_settlesPushesOnThePushersPool(@TempDir Path dataDir) {
        try (ConfigurableApplicationContext context = app().run("--server.port=0", "--timeservice.durability=journal",
                "--timeservice.data-dir=" + dataDir)) {
            assertThat(context.getBean(Pusher.class).settlesOnAnswer()).as("an ack writes the journal").isFalse();
        }
    }

    @Test
    void thePostgresqlStore_migratesItsSchema_andOpensOnBootsPool() {
        String schema = TestDatabase.schemaNameFor(StoreSelectionTest.class);
        try (ConfigurableApplicationContext context = app().run("--server.port=0", "--timeservice.durability=none",
                "--timeservice.store=postgresql", "--spring.datasource.url="
                        + TestDatabase.withSchema(TestDatabase.URL, schema),
                "--spring.flyway.schemas=" + schema)) {
            assertThat(context.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
            MigrationInfoService migrations = context.getBean(Flyway.class).info();
            assertThat(migrations.pending()).as("every migration in the jar ran").isEmpty();
            assertThat(migrations.current().getVersion().getVersion()).as("the newest migration in the sources")
                    .isEqualTo(newestMigrationInTheSources());
            PostgresStore store = context.getBean(PostgresStore.class);
            assertThat(context.getBean(Pusher.class).settlesOnAnswer()).as("an ack is a transaction").isFalse();
            store.timerChanges().add(Limits.DEFAULT_CLOCK, "wired", 5, 0, null);
            assertThat(store.timerReads().get(Limits.DEFAULT_CLOCK, "wired").fireTime()).isEqualTo(5);
        } finally {
            TestDatabase.dropSchema(schema);
        }
    }

    /**
     * The limits reach the PostgreSQL store as configured (the contract suites open it with theirs): the clock limit,
     * the capacity in timers and in payload bytes, each refusal naming the configured number.
     */
    @Test
    void thePostgresqlStore_takesItsLimitsFromTheProperties() {
        String schema = TestDatabase.schemaNameFor(StoreSelectionTest.class) + "_limits";
        TestDatabase.createSchema(schema); // migrated at once (the service migrating: the test above)
        try (ConfigurableApplicationContext context = app().run("--server.port=0", "--timeservice.durability=none",
                "--timeservice.store=postgresql", "--spring.datasource.url="
                        + TestDatabase.withSchema(TestDatabase.URL, schema),
                "--spring.flyway.schemas=" + schema, "--timeservice.clocks.max=2", "--timeservice.capacity=3",
                "--timeservice.capacity-bytes=2000", "--timeservice.limits.max-payload-bytes=1000")) {
            ClockStore clocks = context.getBean(ClockStore.class);
            TimerStore timers = context.getBean(TimerStore.class);
            String payload = "\"" + "x".repeat(898) + "\"";

            clocks.create("one", 0, ClockSettings.VIRTUAL);
            assertThatThrownBy(() -> clocks.create("two", 0, ClockSettings.VIRTUAL))
                    .hasMessage("the service holds its limit of 2 clocks (timeservice.clocks.max); delete one first");
            timers.add(null, "a", 5, 0, payload, Trace.NONE);
            timers.add("one", "b", 5, 0, payload, Trace.NONE);
            assertThatThrownBy(() -> timers.add(null, "c", 5, 0, payload, Trace.NONE))
                    .hasMessageContaining("hold 1802 of the queue's 2000 payload bytes");
            timers.add(null, "c", 5, 0, null, Trace.NONE);
            assertThatThrownBy(() -> timers.add(null, "d", 5, 0, null, Trace.NONE))
                    .hasMessage("the queue holds its capacity of 3 pending timers");
        } finally {
            TestDatabase.dropSchema(schema);
        }
    }

    @Test
    void thePostgresqlStore_keepsNoJournal_evenWithTheDefaultDurability(@TempDir Path dataDir) throws IOException {
        String schema = TestDatabase.schemaNameFor(StoreSelectionTest.class) + "_nojournal";
        TestDatabase.createSchema(schema); // migrated at once (the service migrating: the test above)
        // durability named here: the test JVM's default is none (pom.xml)
        try (ConfigurableApplicationContext context = app().run("--server.port=0", "--timeservice.durability=journal",
                "--timeservice.data-dir=" + dataDir, "--timeservice.store=postgresql", "--spring.datasource.url="
                        + TestDatabase.withSchema(TestDatabase.URL, schema),
                "--spring.flyway.schemas=" + schema)) {
            assertThat(context.getBeanNamesForType(JournalStore.class)).isEmpty();
            try (Stream<Path> files = Files.list(dataDir)) {
                assertThat(files).as("nothing written or locked in the data directory").isEmpty();
            }
        } finally {
            TestDatabase.dropSchema(schema);
        }
    }

    @Test
    void thePostgresqlStore_withoutADatabaseUrl_stopsStartUp() {
        assertThatThrownBy(() -> app().run("--server.port=0", "--timeservice.durability=none",
                "--timeservice.store=postgresql").close())
                .hasStackTraceContaining("Failed to determine a suitable driver class");
    }

    @Test
    void anUnknownStore_stopsStartUp_namingTheProperty() {
        assertThatThrownBy(() -> app().run("--server.port=0", "--timeservice.durability=none",
                "--timeservice.store=postgres").close())
                .hasStackTraceContaining("timeservice.store must be memory or postgresql, got postgres");
    }

    /** The highest {@code V<n>__} of the store's migrations, read from the source tree the jar is built from. */
    private static String newestMigrationInTheSources() {
        try (Stream<Path> files =
                     Files.list(Path.of("src/main/resources/db/timeservice"))) {
            return String.valueOf(files.map(file -> file.getFileName().toString())
                    .filter(name -> name.matches("V\\d+__.*\\.sql"))
                    .mapToInt(name -> Integer.parseInt(name.substring(1, name.indexOf("__"))))
                    .max().orElseThrow());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
