package io.timeservice.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.timeservice.Executables;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real Prometheus server (Debian package {@code prometheus}; {@code PROMETHEUS_BINARY} or PATH) for one test: its
 * own configuration and storage in a temporary directory, listening on 127.0.0.1 only, on a free port, scraping one
 * target every second and evaluating the given rule file every second. {@link #close} kills it.
 */
final class PrometheusServer implements AutoCloseable {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final Process process;
    private final Path log;
    private final URI api;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
    private final JsonMapper json = JsonMapper.builder().build();

    private PrometheusServer(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.api = URI.create("http://127.0.0.1:" + port + "/api/v1/");
    }

    /**
     * Starts Prometheus scraping {@code http://127.0.0.1:<targetPort><metricsPath>} as job {@code timeservice},
     * with {@code ruleFile} loaded.
     */
    static PrometheusServer start(Path workDir, int targetPort, String metricsPath, Path ruleFile) throws IOException {
        Path binary = Executables.find("PROMETHEUS_BINARY",
                "the live dashboard and alert test needs the Prometheus server (Debian package prometheus)",
                "prometheus");
        Path config = workDir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                rule_files:
                  - %s
                scrape_configs:
                  - job_name: timeservice
                    metrics_path: %s
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(ruleFile.toAbsolutePath(), metricsPath, targetPort));
        int port = freePort();
        Path log = workDir.resolve("prometheus.log");
        Process process = new ProcessBuilder(binary.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + workDir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new PrometheusServer(process, log, port);
    }

    /** The {@code data} of {@code GET /api/v1/<path>}; fails naming Prometheus's error if the call was refused. */
    JsonNode get(String path) {
        HttpResponse<String> response = send(path);
        JsonNode body = json.readTree(response.body());
        if (!"success".equals(body.path("status").asString())) {
            throw new AssertionError("Prometheus answered " + response.statusCode() + " to " + path + ": "
                    + body.path("errorType").asString() + ": " + body.path("error").asString());
        }
        return body.path("data");
    }

    /** The whole answer to an instant query at the current time: status, error or data. */
    JsonNode query(String promql) {
        return json.readTree(send("query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).body());
    }

    /** Whether the server answers its readiness endpoint (false while it starts). */
    boolean ready() {
        if (!process.isAlive()) {
            throw new AssertionError("Prometheus exited with " + process.exitValue() + ":\n" + log());
        }
        try {
            return http.send(HttpRequest.newBuilder(api.resolve("/-/ready")).timeout(REQUEST_TIMEOUT).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notListeningYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** What Prometheus logged, for failure messages. */
    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private HttpResponse<String> send(String path) {
        try {
            return http.send(HttpRequest.newBuilder(api.resolve(path)).timeout(REQUEST_TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("Prometheus did not answer " + path + "; its log:\n" + log(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
