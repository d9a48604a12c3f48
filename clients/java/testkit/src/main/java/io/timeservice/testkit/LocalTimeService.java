package io.timeservice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A TimeService started from its jar for one test run: {@code java -jar} on a free loopback port, memory only (no
 * journal), with push targets on loopback and private addresses allowed (a test's receiver listens on 127.0.0.1),
 * stopped by {@link #close()} or, failing that, when the JVM exits.
 *
 * <p>The jar is the system property {@code timeservice.jar}, else the environment's {@code TIMESERVICE_JAR}, else
 * the first {@code target/timeservice-<version>.jar} found in the working directory or one of its parents.
 */
final class LocalTimeService implements AutoCloseable {

    private static final Pattern SERVICE_JAR = Pattern.compile("timeservice-\\d[\\w.-]*\\.jar");
    private static final Duration START_DEADLINE = Duration.ofSeconds(120);
    private static final int PORT_TRIES = 3;

    private final Process process;
    private final URI uri;
    private final Path log;
    private final Thread killer;

    private LocalTimeService(Process process, URI uri, Path log) {
        this.process = process;
        this.uri = uri;
        this.log = log;
        this.killer = new Thread(process::destroyForcibly, "timeservice-stop");
        Runtime.getRuntime().addShutdownHook(killer);
    }

    URI uri() {
        return uri;
    }

    /** Starts the service from its jar and waits until it is ready; {@code settings} are more {@code --name=value}. */
    static LocalTimeService start(String... settings) {
        Path jar = jar();
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            LocalTimeService service = launch(jar, port, settings);
            Optional<String> failure = service.awaitReady();
            if (failure.isEmpty()) {
                return service;
            }
            service.close();
            if (attempt == PORT_TRIES || !failure.get().contains("already in use")) {
                throw new IllegalStateException("TimeService from " + jar + " did not start on port " + port + ": "
                        + failure.get());
            }
        }
    }

    static Path jar() {
        String named = System.getProperty("timeservice.jar");
        if (named == null || named.isBlank()) {
            named = System.getenv("TIMESERVICE_JAR");
        }
        if (named != null && !named.isBlank()) {
            Path jar = Paths.get(named);
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("timeservice.jar names no file: " + jar.toAbsolutePath());
            }
            return jar;
        }
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path target = dir.resolve("target");
            if (Files.isDirectory(target)) {
                try (Stream<Path> files = Files.list(target)) {
                    Optional<Path> jar = files.filter(f -> SERVICE_JAR.matcher(f.getFileName().toString()).matches())
                            .sorted().findFirst();
                    if (jar.isPresent()) {
                        return jar.get();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("no TimeService to test against: set TIMESERVICE_URL (or -Dtimeservice.url) "
                + "to a running one, or -Dtimeservice.jar (or TIMESERVICE_JAR) to the service's jar; none was found "
                + "as target/timeservice-*.jar in " + Paths.get("").toAbsolutePath() + " or its parents");
    }

    private static LocalTimeService launch(Path jar, int port, String... settings) {
        try {
            Path log = Files.createTempFile("timeservice-" + port + "-", ".log");
            List<String> command = new ArrayList<>(List.of(
                    Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m", "-XX:TieredStopAtLevel=1", "-jar", jar.toAbsolutePath().toString(),
                    "--server.port=" + port, "--server.address=127.0.0.1", "--timeservice.durability=none",
                    "--server.shutdown=immediate", "--spring.main.banner-mode=off",
                    "--timeservice.push.allow-private-targets=true"));
            command.addAll(List.of(settings));
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            return new LocalTimeService(process, URI.create("http://127.0.0.1:" + port), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + jar, e);
        }
    }

    /** Empty once the service answers its readiness probe; the reason when it exited or the deadline passed. */
    private Optional<String> awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest probe = HttpRequest.newBuilder(uri.resolve("/actuator/health/readiness"))
                .timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + START_DEADLINE.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
                    return Optional.of("it exited with " + process.exitValue() + "; its log ends: " + logTail());
                }
                try {
                    if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return Optional.empty();
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
            }
            return Optional.of("not ready within " + START_DEADLINE + "; its log ends: " + logTail());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while waiting for it");
        }
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the service (SIGTERM, then a kill after 15 s) and removes its log. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(15, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // a temporary file
        }
    }
}
