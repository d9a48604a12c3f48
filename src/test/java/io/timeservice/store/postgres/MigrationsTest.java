package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, item 15: an index built by a migration must not block the writes of the instances still serving during
 * a rolling upgrade. V3's index was built without {@code CONCURRENTLY} and cannot change (Flyway checks applied
 * migrations' checksums); every later one is built {@code CONCURRENTLY}, alone in its file, and Flyway runs such a
 * migration with the store's settings ({@link PostgresStore#FLYWAY_SETTINGS}) without hanging.
 */
class MigrationsTest {

    private static final Path MIGRATIONS = Path.of("src/main/resources/db/timeservice");
    /** The last migration written before the rule; it is applied on existing databases as it is. */
    private static final int LAST_BLOCKING_INDEX = 3;
    private static final Pattern VERSION = Pattern.compile("V(\\d+)__.*\\.sql");
    private static final Pattern CREATE_INDEX =
            Pattern.compile("\\bCREATE\\s+(UNIQUE\\s+)?INDEX\\b(\\s+CONCURRENTLY)?");

    @Test
    void everyIndexAfterV3_isBuiltConcurrently_aloneInItsMigration() throws IOException {
        List<Path> later;
        try (Stream<Path> files = Files.list(MIGRATIONS)) {
            later = files.filter(file -> version(file) > LAST_BLOCKING_INDEX).sorted().toList();
        }
        for (Path migration : later) {
            String sql = withoutComments(Files.readString(migration)).toUpperCase(Locale.ROOT);
            Matcher index = CREATE_INDEX.matcher(sql);
            while (index.find()) {
                assertThat(index.group(2)).as("%s: CREATE INDEX without CONCURRENTLY blocks every write to the"
                        + " table while it builds", migration.getFileName()).isNotNull();
                assertThat(sql.strip().split(";")).as("%s: a CONCURRENTLY index runs outside a transaction, so it"
                        + " must be the migration's only statement", migration.getFileName()).hasSize(1);
            }
        }
    }

    /**
     * On a database of its own: {@code CREATE INDEX CONCURRENTLY} waits for every older transaction of its database,
     * so on the shared test database another test's (or another process's) long transaction held it past the
     * timeout on a loaded machine (a fresh-clone run failed so); its own database leaves it only Flyway's.
     */
    @Test
    void aConcurrentIndexMigration_runsThroughFlywayWithTheStoresSettings() throws Exception {
        String schema = TestDatabase.schemaNameFor(MigrationsTest.class);
        String database = schema;
        TestDatabase.admin("CREATE DATABASE " + database);
        // named, so that a hung run's sessions can be ended and the database dropped
        String own = TestDatabase.urlOfDatabase(database);
        String url = own + (own.contains("?") ? "&" : "?") + "ApplicationName=" + schema;
        try {
            CompletableFuture<Integer> migrated = CompletableFuture.supplyAsync(() -> Flyway.configure()
                    .dataSource(url, null, null).schemas(schema).defaultSchema(schema)
                    .locations(PostgresStore.MIGRATIONS, "classpath:db/concurrent-index-probe")
                    .configuration(PostgresStore.FLYWAY_SETTINGS).load().migrate().migrationsExecuted);

            // with Flyway's transactional lock, its own open transaction makes CONCURRENTLY wait for ever
            assertThat(migrated.get(2, TimeUnit.MINUTES)).isGreaterThan(LAST_BLOCKING_INDEX);
        } finally {
            TestDatabase.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
                    + database + "'");
            TestDatabase.admin("DROP DATABASE IF EXISTS " + database);
        }
    }

    private static int version(Path file) {
        Matcher name = VERSION.matcher(file.getFileName().toString());
        return name.matches() ? Integer.parseInt(name.group(1)) : 0;
    }

    private static String withoutComments(String sql) {
        return sql.replaceAll("--[^\\n]*", "").replaceAll("(?s)/\\*.*?\\*/", "");
    }
}
