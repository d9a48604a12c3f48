package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * {@link MigratedSchemas} makes the schema Flyway makes: a schema it made and one Flyway migrated read the same in
 * the catalog (columns and defaults, indexes, constraints, functions, triggers, sequences), hold the same rows, and
 * record the same migrations with the same checksums; a Flyway pointed at it finds nothing to do.
 */
class MigratedSchemasTest {

    @Test
    void aSchemaMadeFromTheTemplate_readsAsOneFlywayMigrated_andFlywayFindsItUpToDate() throws SQLException {
        String copied = TestDatabase.schemaNameFor(MigratedSchemasTest.class);
        String migrated = TestDatabase.schemaNameFor(Flyway.class);
        try {
            assertThat(MigratedSchemas.create(TestDatabase.URL, copied))
                    .as("the migrations run in one transaction (one that cannot leaves every test schema to Flyway,"
                            + " seconds each: make it transaction-safe, or drop this assertion knowingly)")
                    .isTrue();
            Flyway.configure().dataSource(TestDatabase.URL, null, null).schemas(migrated).defaultSchema(migrated)
                    .locations(PostgresStore.MIGRATIONS).configuration(PostgresStore.FLYWAY_SETTINGS).load()
                    .migrate();

            assertThat(describe(copied)).isEqualTo(describe(migrated));
            assertThat(Flyway.configure().dataSource(TestDatabase.URL, null, null).schemas(copied)
                    .defaultSchema(copied).locations(PostgresStore.MIGRATIONS)
                    .configuration(PostgresStore.FLYWAY_SETTINGS).load().migrate().migrationsExecuted).isZero();
        } finally {
            TestDatabase.dropSchema(copied);
            TestDatabase.dropSchema(migrated);
        }
    }

    @Test
    void concurrentIndexBuilds_becomePlainOnes_andNothingElseChanges() {
        assertThat(MigratedSchemas.withoutConcurrently("""
                -- built CONCURRENTLY, alone
                CREATE INDEX CONCURRENTLY a ON t (x);
                create unique index concurrently b on t (y);
                DROP INDEX CONCURRENTLY c;"""))
                .isEqualTo("""
                        -- built CONCURRENTLY, alone
                        CREATE INDEX a ON t (x);
                        create unique index b on t (y);
                        DROP INDEX c;""");
    }

    /** What the catalog and the rows say about {@code schema}, its name written as {@code S}. */
    private static List<String> describe(String schema) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(TestDatabase.URL)) {
            lines.addAll(rows(connection, schema, """
                    SELECT table_name, column_name, data_type, column_default, is_nullable FROM information_schema.columns
                    WHERE table_schema = ? ORDER BY table_name, ordinal_position"""));
            lines.addAll(rows(connection, schema, """
                    SELECT tablename, indexname, indexdef FROM pg_indexes
                    WHERE schemaname = ? AND tablename <> 'flyway_schema_history' ORDER BY indexname"""));
            lines.addAll(rows(connection, schema, """
                    SELECT r.relname, c.conname, pg_get_constraintdef(c.oid) FROM pg_constraint c
                    JOIN pg_class r ON r.oid = c.conrelid JOIN pg_namespace n ON n.oid = c.connamespace
                    WHERE n.nspname = ? AND r.relname <> 'flyway_schema_history' ORDER BY r.relname, c.conname"""));
            lines.addAll(rows(connection, schema, """
                    SELECT p.proname, pg_get_function_identity_arguments(p.oid), pg_get_functiondef(p.oid)
                    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ?
                    ORDER BY 1, 2"""));
            lines.addAll(rows(connection, schema, """
                    SELECT r.relname, t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t
                    JOIN pg_class r ON r.oid = t.tgrelid JOIN pg_namespace n ON n.oid = r.relnamespace
                    WHERE n.nspname = ? AND NOT t.tgisinternal ORDER BY 1, 2"""));
            lines.addAll(rows(connection, schema, """
                    SELECT sequencename, data_type, start_value, increment_by, max_value, cycle, last_value
                    FROM pg_sequences WHERE schemaname = ? ORDER BY sequencename"""));
            lines.addAll(rows(connection, schema, "SELECT version, description, type, script, checksum, success FROM "
                    + schema + ".flyway_schema_history ORDER BY installed_rank"));
            for (String table : rows(connection, schema, """
                    SELECT tablename FROM pg_tables WHERE schemaname = ? AND tablename <> 'flyway_schema_history'
                    ORDER BY tablename""")) {
                lines.addAll(rows(connection, schema, "SELECT '" + table + "', count(*), md5(coalesce(string_agg("
                        + "r::text, ',' ORDER BY r::text), '')) FROM " + schema + "." + table + " r"));
            }
        }
        return lines;
    }

    /** Each row of {@code sql} (with {@code schema} as its parameter, if it has one) as one line. */
    private static List<String> rows(Connection connection, String schema, String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            if (statement.getParameterMetaData().getParameterCount() > 0) {
                statement.setString(1, schema);
            }
            try (ResultSet row = statement.executeQuery()) {
                int columns = row.getMetaData().getColumnCount();
                while (row.next()) {
                    StringBuilder line = new StringBuilder();
                    for (int i = 1; i <= columns; i++) {
                        line.append(i > 1 ? " | " : "").append(row.getString(i));
                    }
                    lines.add(line.toString().replace(schema, "S"));
                }
            }
        }
        return lines;
    }
}
