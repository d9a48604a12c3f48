package io.timeservice.store.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.CoreMigrationType;

/**
 * Makes the test schemas of one JVM as the jar's Flyway migrations make them, without a Flyway run per schema. Flyway
 * migrates one template schema per JVM (its history tells which scripts it applied, in which order); every schema
 * after that runs those same scripts in that order in one transaction and gets a copy of the template's history, so a
 * Flyway pointed at it later (a service started on it) finds every migration applied with the same checksums.
 *
 * <p>Why: a Flyway run per schema cost seconds (one transaction, history row and lock per migration, and every
 * {@code CREATE INDEX CONCURRENTLY} waits for every older transaction of the whole database, other test classes'
 * included); the suite makes about a hundred schemas. The one difference: in the transaction an index is built
 * without {@code CONCURRENTLY}, which is the same index on a table no other session sees. Flyway's own path, the
 * concurrent builds included, stays covered: the template, {@code MigrationsTest}, and every PostgreSQL service a
 * test starts on a schema of its own. A script that cannot run in a transaction fails the fast path, and that schema
 * is migrated by Flyway as before.
 *
 * <p>Thread-safe: the template is made once, under this class's lock.
 */
final class MigratedSchemas {

    private static final Pattern CONCURRENT_INDEX =
            Pattern.compile("\\b(CREATE\\s+(?:UNIQUE\\s+)?INDEX|DROP\\s+INDEX|REINDEX\\s+INDEX)\\s+CONCURRENTLY\\b",
                    Pattern.CASE_INSENSITIVE);

    /** A statement of a script that would end the one transaction (a procedure's COMMIT included). */
    private static final Pattern TRANSACTION_CONTROL =
            Pattern.compile("^\\s*(COMMIT|ROLLBACK|BEGIN|START\\s+TRANSACTION)\\s*;", Pattern.CASE_INSENSITIVE
                    | Pattern.MULTILINE);

    private static Template template;
    /** Whether {@link #template} was decided: null after that means Flyway makes every schema. */
    private static boolean decided;

    private MigratedSchemas() {
    }

    /**
     * Creates {@code schema} on {@code url}'s database with every migration of the jar applied; true if it ran the
     * template's scripts, false if Flyway migrated it.
     */
    static boolean create(String url, String schema) {
        Template made = template(url);
        if (made != null && made.copyTo(url, schema)) {
            return true;
        }
        flyway(url, schema).migrate();
        return false;
    }

    private static synchronized Template template(String url) {
        if (!decided) {
            decided = true;
            String schema = TestDatabase.schemaNameFor(MigratedSchemas.class);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> TestDatabase.dropSchema(schema)));
            Flyway flyway = flyway(url, schema);
            flyway.migrate();
            List<String> scripts = new ArrayList<>();
            for (MigrationInfo applied : flyway.info().applied()) {
                if (applied.getType() == CoreMigrationType.SQL) {
                    String script = read(applied.getScript());
                    if (TRANSACTION_CONTROL.matcher(script).find()) {
                        return null; // it cannot share one transaction: Flyway makes every schema
                    }
                    scripts.add(withoutConcurrently(script));
                } else if (applied.getType() != CoreMigrationType.SCHEMA) {
                    return null; // a Java or baseline migration: no script to run, so Flyway makes every schema
                }
            }
            template = new Template(schema, scripts);
        }
        return template;
    }

    private static Flyway flyway(String url, String schema) {
        return Flyway.configure().dataSource(url, null, null).schemas(schema).defaultSchema(schema)
                .locations(PostgresStore.MIGRATIONS).configuration(PostgresStore.FLYWAY_SETTINGS).load();
    }

    static String withoutConcurrently(String script) {
        return CONCURRENT_INDEX.matcher(script).replaceAll("$1");
    }

    private static String read(String script) {
        String resource = PostgresStore.MIGRATIONS.substring("classpath:".length()) + "/" + script;
        try (InputStream in = MigratedSchemas.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("migration " + resource + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The template schema's name and the scripts Flyway applied to it, in order. */
    private record Template(String schema, List<String> scripts) {

        /** Makes {@code target} in one transaction; false, with nothing left behind, if a script refused to run so. */
        boolean copyTo(String url, String target) {
            try (Connection connection = DriverManager.getConnection(url)) {
                connection.setAutoCommit(false);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("CREATE SCHEMA " + target);
                    // the search path Flyway migrates with: the schema, then the connection's own
                    statement.execute("SELECT set_config('search_path', '\"" + target
                            + "\",' || current_setting('search_path'), true)");
                    for (String script : scripts) {
                        statement.execute(script);
                    }
                    statement.execute("CREATE TABLE " + target + ".flyway_schema_history (LIKE " + schema
                            + ".flyway_schema_history INCLUDING ALL)");
                    statement.execute("INSERT INTO " + target + ".flyway_schema_history SELECT * FROM " + schema
                            + ".flyway_schema_history");
                    // the row of Flyway's creating the schema names the schema
                    statement.execute("UPDATE " + target + ".flyway_schema_history SET script = replace(script, '"
                            + schema + "', '" + target + "') WHERE type = 'SCHEMA'");
                    connection.commit();
                    return true;
                } catch (SQLException e) {
                    connection.rollback();
                    return false;
                }
            } catch (SQLException e) {
                throw new IllegalStateException("could not make test schema " + target, e);
            }
        }
    }
}
