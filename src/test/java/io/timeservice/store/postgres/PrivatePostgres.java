package io.timeservice.store.postgres;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of the test's own, in a temporary directory, listening on 127.0.0.1 on a free port: a test may
 * stop and start it (never the shared server at 127.0.0.1:5432). Made with Debian's binaries
 * ({@code /usr/lib/postgresql/<version>/bin}, the newest version; {@code POSTGRESQL_BIN_DIR} names another
 * directory), which {@code ./test} installs (package {@code postgresql}); without them the test fails saying so.
 * PostgreSQL refuses to run as root: as root, every command runs as the OS user {@code postgres}, which owns the
 * directory. {@link #close} stops the server and deletes the directory.
 */
final class PrivatePostgres implements AutoCloseable {

    private static final Path DEBIAN_VERSIONS = Path.of("/usr/lib/postgresql");
    private static final String OS_USER = "postgres";

    private final Path binaries;
    private final Path directory;
    private final int port;

    private PrivatePostgres(Path binaries, Path directory, int port) {
        this.binaries = binaries;
        this.directory = directory;
        this.port = port;
    }

    /** initdb (trust authentication, superuser {@code postgres}) and a started server. */
    static PrivatePostgres start() throws Exception {
        Path binaries = binaries();
        Path directory = Files.createTempDirectory("timeservice-private-pg");
        if (isRoot()) {
            UserPrincipal owner = directory.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(OS_USER);
            Files.setOwner(directory, owner);
        }
        PrivatePostgres postgres = new PrivatePostgres(binaries, directory, freePort());
        try {
            postgres.run("initdb", "-D", postgres.dataDir(), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                    "--no-sync");
            postgres.startServer();
        } catch (Exception | AssertionError e) {
            postgres.close();
            throw e;
        }
        return postgres;
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    /** Starts the server and waits until it accepts connections. */
    void startServer() throws Exception {
        run("pg_ctl", "start", "-w", "-t", "60", "-D", dataDir(), "-l", directory.resolve("server.log").toString(),
                "-o", "-c listen_addresses=127.0.0.1 -p " + port + " -k " + directory);
    }

    /** A fast shutdown: sessions are ended, their transactions rolled back, then the server stops. */
    void stopServer() throws Exception {
        run("pg_ctl", "stop", "-w", "-t", "60", "-m", "fast", "-D", dataDir());
    }

    @Override
    public void close() throws Exception {
        try {
            if (Files.exists(directory.resolve("data").resolve("postmaster.pid"))) {
                run("pg_ctl", "stop", "-w", "-t", "60", "-m", "immediate", "-D", dataDir());
            }
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(PrivatePostgres::delete);
            }
        }
    }

    private String dataDir() {
        return directory.resolve("data").toString();
    }

    /** Runs one of the binaries to its end (as {@code postgres} when this is root); fails with its output. */
    private void run(String program, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        if (isRoot()) {
            command.addAll(List.of("runuser", "-u", OS_USER, "--"));
        }
        command.add(binaries.resolve(program).toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .start();
        process.getOutputStream().close();
        // the output is small (a few lines); read it all, then the exit status
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " failed:\n" + output + serverLog());
        }
    }

    private String serverLog() {
        Path log = directory.resolve("server.log");
        try {
            return Files.exists(log) ? "\nserver.log:\n" + Files.readString(log) : "";
        } catch (IOException e) {
            return "\n(server.log unreadable: " + e + ")";
        }
    }

    /** {@code POSTGRESQL_BIN_DIR}, else the newest of Debian's versions; fails when there is none. */
    private static Path binaries() throws IOException {
        String named = System.getenv("POSTGRESQL_BIN_DIR");
        if (named != null && !named.isEmpty()) {
            if (!Files.isExecutable(Path.of(named, "initdb"))) {
                fail("POSTGRESQL_BIN_DIR=" + named + " has no initdb.");
            }
            return Path.of(named);
        }
        List<Path> found = new ArrayList<>();
        if (Files.isDirectory(DEBIAN_VERSIONS)) {
            try (Stream<Path> versions = Files.list(DEBIAN_VERSIONS)) {
                versions.map(version -> version.resolve("bin"))
                        .filter(bin -> Files.isExecutable(bin.resolve("initdb"))
                                && Files.isExecutable(bin.resolve("pg_ctl")))
                        .forEach(found::add);
            }
        }
        return found.stream().max(Comparator.comparingInt(PrivatePostgres::majorVersion)).orElseThrow(() ->
                new AssertionError("no PostgreSQL server binaries (initdb, pg_ctl) in " + DEBIAN_VERSIONS
                        + "/<version>/bin: this test runs a cluster of its own. Install Debian's package postgresql"
                        + " (./test does), or set POSTGRESQL_BIN_DIR to a directory holding initdb and pg_ctl."));
    }

    private static int majorVersion(Path bin) {
        String version = bin.getParent().getFileName().toString();
        return version.matches("\\d+") ? Integer.parseInt(version) : -1;
    }

    static boolean isRoot() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot tell whether this runs as root", e);
        }
    }

    /** A port nothing listens on now; the server binds it a moment later. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void delete(Path path) {
        try {
            Files.delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
