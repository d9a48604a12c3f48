package io.timeservice.store.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A pgbouncer of the test's own in transaction mode, on 127.0.0.1 at a free port, in front of one schema of the test
 * database: the database {@value #DATABASE} it serves is the test database's, every server connection's search path
 * set to the schema once when it opens ({@code connect_query}; pgbouncer 1.18 drops pgjdbc's {@code currentSchema},
 * a startup parameter it does not know, so each schema has a pooler of its own). {@code PGBOUNCER_BINARY} names the
 * binary, else {@code pgbouncer} on PATH or in /usr/sbin (Debian's package {@code pgbouncer}, which {@code ./test}
 * installs). As root it runs as the OS user {@code postgres} (pgbouncer refuses root). Started in the foreground as a
 * child of the test, it is stopped by its pid ({@link #close}), at most a few seconds after.
 */
public final class PgBouncer implements AutoCloseable {

    /** The name clients give as the database. */
    static final String DATABASE = "store";
    private static final String OS_USER = "postgres";
    private static final Pattern URL = Pattern.compile("jdbc:postgresql://([^:/?,]+)(?::(\\d+))?/([^?]+)(?:\\?(.*))?");

    private final Process process;
    private final Path directory;
    private final int port;

    private PgBouncer(Process process, Path directory, int port) {
        this.process = process;
        this.directory = directory;
        this.port = port;
    }

    /** A pgbouncer in transaction mode in front of {@code schema} of {@link TestDatabase#URL}, accepting connections. */
    public static PgBouncer start(String schema) {
        Path directory = null;
        try {
            directory = Files.createTempDirectory("timeservice-pgbouncer",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
            int port = PrivatePostgres.freePort();
            Path config = directory.resolve("pgbouncer.ini");
            Files.writeString(config, config(schema, port));
            List<String> command = new ArrayList<>(List.of(binary()));
            if (PrivatePostgres.isRoot()) {
                command.addAll(List.of("-u", OS_USER));
            }
            command.add(config.toString());
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(directory.resolve("pgbouncer.log").toFile()).start();
            PgBouncer pgBouncer = new PgBouncer(process, directory, port);
            pgBouncer.awaitListening();
            return pgBouncer;
        } catch (IOException e) {
            deleteQuietly(directory);
            throw new UncheckedIOException("could not start pgbouncer", e);
        }
    }

    /** The JDBC URL of the pooled database: no statement prepared on the server, as transaction pooling needs. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE + "?prepareThreshold=0";
    }

    /** The same database with pgjdbc's default: named statements on the server after five runs of one. */
    String jdbcUrlPreparingOnServer() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    private static String config(String schema, int port) {
        Matcher url = URL.matcher(TestDatabase.URL);
        if (!url.matches()) {
            throw new IllegalStateException("pgbouncer needs a single-host TIMESERVICE_TEST_JDBC_URL"
                    + " (jdbc:postgresql://host:port/database?user=...), got " + TestDatabase.URL);
        }
        StringBuilder server = new StringBuilder("host=").append(url.group(1)).append(" port=")
                .append(url.group(2) == null ? "5432" : url.group(2)).append(" dbname=").append(url.group(3));
        String user = "user=" + System.getProperty("user.name"); // pgjdbc's default, as pgbouncer needs one
        for (String parameter : url.group(4) == null ? new String[0] : url.group(4).split("&")) {
            if (parameter.startsWith("user=")) {
                user = parameter;
            } else if (parameter.startsWith("password=")) {
                server.append(' ').append(parameter);
            }
        }
        server.append(' ').append(user); // auth_type any: every client logs in to the server as this user
        return """
                [databases]
                %s = %s connect_query='SET search_path TO %s'
                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = %d
                unix_socket_dir =
                auth_type = any
                pool_mode = transaction
                ignore_startup_parameters = extra_float_digits,search_path
                max_client_conn = 200
                default_pool_size = 20
                server_reset_query =
                """.formatted(DATABASE, server, schema, port);
    }

    /** Waits (at most 10 s) until it accepts connections; fails with its log if it exits or does not. */
    private void awaitListening() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                close();
                throw new IllegalStateException("pgbouncer exited (" + process.exitValue() + "): " + log());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return;
            } catch (IOException notYet) {
                Thread.onSpinWait();
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        String log = log();
        close();
        throw new IllegalStateException("pgbouncer did not listen on 127.0.0.1:" + port + " within 10 s: " + log);
    }

    private String log() {
        try {
            return Files.readString(directory.resolve("pgbouncer.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Stops it by its pid (SIGTERM, then SIGKILL after 5 s) and deletes its directory. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        deleteQuietly(directory);
    }

    private static String binary() {
        String named = System.getenv("PGBOUNCER_BINARY");
        if (named != null && !named.isEmpty()) {
            return named;
        }
        for (String directory : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin").split(":")) {
            Path candidate = Path.of(directory.isEmpty() ? "." : directory, "pgbouncer");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new AssertionError("no pgbouncer on PATH or in /usr/sbin: these tests run one of their own. Install"
                + " Debian's package pgbouncer (./test does), or set PGBOUNCER_BINARY to one.");
    }

    private static void deleteQuietly(Path directory) {
        if (directory == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the OS cleans it up
        }
    }
}
