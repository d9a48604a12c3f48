package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * A schema of its own in the test database, migrated from the jar's migrations ({@link MigratedSchemas}: as Flyway
 * migrates, without a Flyway run per schema), with a pool on it; dropped
 * with everything in it by {@link #close}. The database is {@code TIMESERVICE_TEST_JDBC_URL} (which {@code ./test}
 * exports), else PostgreSQL at 127.0.0.1:5432, database {@code test}, user {@code postgres}. Nothing is mocked: if no
 * database answers, the tests fail saying so.
 */
public final class TestDatabase implements AutoCloseable {

    public static final String URL = System.getenv().getOrDefault("TIMESERVICE_TEST_JDBC_URL",
            "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

    private final String schema;
    private final HikariDataSource dataSource;

    private TestDatabase(String schema, HikariDataSource dataSource) {
        this.schema = schema;
        this.dataSource = dataSource;
    }

    /** A fresh schema named after {@code owner} (plus a random suffix), migrated, with a pool of {@code poolSize}. */
    static TestDatabase create(Class<?> owner, int poolSize) {
        String schema = schemaNameFor(owner);
        createSchema(schema);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(withSchema(URL, schema));
        config.setMaximumPoolSize(poolSize);
        config.setPoolName(schema);
        return new TestDatabase(schema, new HikariDataSource(config));
    }

    /**
     * Creates {@code schema} in the test database, as the jar's Flyway migrations make it ({@link MigratedSchemas}):
     * a service started on it finds every migration applied.
     */
    public static void createSchema(String schema) {
        MigratedSchemas.create(URL, schema);
    }

    /** The JDBC URL of {@code url} with its search path set to {@code schema} only. */
    public static String withSchema(String url, String schema) {
        return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    /** A schema name no other test run uses: the owner's name and a random suffix. */
    public static String schemaNameFor(Class<?> owner) {
        return ("ts_" + owner.getSimpleName() + "_" + UUID.randomUUID().toString().substring(0, 8))
                .toLowerCase(Locale.ROOT);
    }

    /** The JDBC URL of the database {@code name} on the test database's server, with the same parameters. */
    public static String urlOfDatabase(String name) {
        return URL.replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
    }

    /** Runs one statement on the test database, outside any pool (creating, closing or dropping a database). */
    public static void admin(String sql) {
        try (Connection connection = DriverManager.getConnection(URL);
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** Drops {@code schema} with everything in it. */
    public static void dropSchema(String schema) {
        try (Connection connection = DriverManager.getConnection(URL);
             Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop test schema " + schema, e);
        }
    }

    String schema() {
        return schema;
    }

    /** The JDBC URL of this schema, for a service or pool of its own. */
    String jdbcUrl() {
        return withSchema(URL, schema);
    }

    HikariDataSource dataSource() {
        return dataSource;
    }

    /** Runs one SQL statement outside the store (to set up what only time would, e.g. an expired lease). */
    int execute(String sql) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            return statement.executeUpdate(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /**
     * Analyzes every table of this schema, and only those. A bare {@code ANALYZE} reads every schema of the test
     * database, other test classes' and other runs' included: in a fresh-clone run under load it deadlocked with a
     * migration's {@code CREATE INDEX CONCURRENTLY} in another schema (issue 41's FLAKES.md, item 4), and it changes
     * the statistics, so the plans, of schemas whose tests are running.
     */
    void analyze() {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            String tables;
            try (var row = statement.executeQuery("SELECT string_agg(format('%I.%I', schemaname, tablename), ', ')"
                    + " FROM pg_tables WHERE schemaname = current_schema()")) {
                row.next();
                tables = row.getString(1);
            }
            if (tables == null || !schema.equals(connection.getSchema())) {
                throw new IllegalStateException("no table to analyze in schema " + schema + " (search path: "
                        + connection.getSchema() + ")");
            }
            statement.execute("ANALYZE " + tables);
        } catch (SQLException e) {
            throw new IllegalStateException("ANALYZE of schema " + schema, e);
        }
    }

    /** A number the first column of {@code sql}'s first row holds. */
    long queryLong(String sql) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             var row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    @Override
    public void close() {
        dataSource.close();
        dropSchema(schema);
    }
}
