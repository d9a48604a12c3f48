package io.timeservice.metrics;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.restassured.response.Response;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * No answer names a path on the server: not the health components (with details, as an open install shows them to
 * everyone, or without, as a token install shows them to strangers), not the other actuator endpoints, not the API.
 * The service runs with its journal in a directory of its own, so that directory's path is a marker no answer may
 * carry; the working directory is the other path the server could leak.
 */
class NoServerPathInAnswersTest {

    private static final String READ = "paths-read-token-0123456789";

    /**
     * A new data directory for a service that lives as long as the test JVM (its Spring context is cached), so it
     * is deleted when the JVM exits rather than after the test.
     */
    static Path freshDataDir(String name) {
        try {
            Path dir = Files.createTempDirectory("timeservice-" + name + "-").toRealPath();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteRecursively(dir), "delete " + dir));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException gone) {
            // best effort at exit: nothing to report to
        }
    }

    /** Paths no answer may contain: the data directory as configured, resolved, and the working directory. */
    static List<String> serverPaths(Path dataDir) {
        List<String> paths = new ArrayList<>(List.of(dataDir.toString(),
                dataDir.toAbsolutePath().normalize().toString(),
                Path.of("").toAbsolutePath().toString()));
        try {
            paths.add(Path.of("").toRealPath().toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return paths;
    }

    static void assertCarriesNoPath(Response answer, String what, List<String> paths) {
        assertThat(answer.statusCode()).as(what).isLessThan(500);
        String body = answer.asString();
        for (String path : paths) {
            assertThat(body).as(what).doesNotContain(path);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {"timeservice.durability=journal", "timeservice.capacity=4711"})
    class OpenInstall {

        static final Path DATA_DIR = freshDataDir("open");

        @DynamicPropertySource
        static void dataDir(DynamicPropertyRegistry registry) {
            registry.add("timeservice.data-dir", DATA_DIR::toString);
        }

        @LocalServerPort
        int port;

        @Test
        void healthWithDetails_andEveryOtherAnswer_carryNoServerPath() {
            Response health = given().port(port).get("/actuator/health");
            health.then().statusCode(200);
            assertThat(health.jsonPath().getString("components.journal.details.durability")).isEqualTo("journal");
            List<String> paths = serverPaths(DATA_DIR);

            assertCarriesNoPath(health, "/actuator/health", paths);
            for (String path : new String[] {"/actuator/health/journal", "/actuator/health/timerQueue",
                "/actuator/info", "/actuator/metrics", "/actuator/prometheus", "/v3/api-docs", "/queue",
                "/queue/heap", "/queue/invariants", "/timers/nope", "/no-such-page", "/actuator/env"}) {
                assertCarriesNoPath(given().port(port).get(path), path, paths);
            }
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {"timeservice.durability=journal", "timeservice.security.read-tokens=" + READ})
    class TokenInstall {

        static final Path DATA_DIR = freshDataDir("tokens");

        @DynamicPropertySource
        static void dataDir(DynamicPropertyRegistry registry) {
            registry.add("timeservice.data-dir", DATA_DIR::toString);
        }

        @LocalServerPort
        int port;

        @Test
        void health_withAndWithoutDetails_carriesNoServerPath() {
            List<String> paths = serverPaths(DATA_DIR);
            Response statusOnly = given().port(port).get("/actuator/health");
            statusOnly.then().statusCode(200);
            assertThat(statusOnly.jsonPath().getMap("components")).isNull();
            Response detailed = given().port(port).header("Authorization", "Bearer " + READ).get("/actuator/health");
            detailed.then().statusCode(200);
            assertThat(detailed.jsonPath().getString("components.journal.details.fsync")).isEqualTo("always");

            assertCarriesNoPath(statusOnly, "health without a token", paths);
            assertCarriesNoPath(detailed, "health with a token", paths);
            assertCarriesNoPath(given().port(port).header("Authorization", "Bearer " + READ)
                    .get("/actuator/prometheus"), "prometheus with a token", paths);
        }
    }
}
