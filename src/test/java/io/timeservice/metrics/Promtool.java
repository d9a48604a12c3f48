package io.timeservice.metrics;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs Prometheus's own linter, {@code promtool check metrics} (Debian package {@code prometheus}), over a text
 * exposition. A missing promtool fails the test instead of skipping it: a lint that silently does not run proves
 * nothing. {@code ./test} installs it.
 */
final class Promtool {

    private static final Path DEBIAN_PROMTOOL = Path.of("/usr/bin/promtool");

    private Promtool() {
    }

    /** What promtool said about {@code exposition}: one line per problem, empty when it passes. */
    record Report(int exitCode, List<String> problems) {
        boolean clean() {
            return exitCode == 0 && problems.isEmpty();
        }
    }

    static Report checkMetrics(String exposition) {
        Process process;
        try {
            process = new ProcessBuilder(executable().toString(), "check", "metrics").redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + executable(), e);
        }
        // promtool reads all of stdin before it writes: feed it on another thread so neither side can block the other.
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(process));
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write(exposition.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("could not write to promtool", e);
        }
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("promtool check metrics did not finish within 60 s");
            }
            List<String> problems = Arrays.stream(output.get().split("\n")).filter(line -> !line.isBlank()).toList();
            return new Report(process.exitValue(), problems);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for promtool", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError("could not read promtool's output", e.getCause());
        }
    }

    private static Path executable() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String directory : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(directory.isEmpty() ? "." : directory, "promtool");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        if (Files.isExecutable(DEBIAN_PROMTOOL)) {
            return DEBIAN_PROMTOOL;
        }
        return fail("promtool is missing (not on PATH \"" + path + "\", not at " + DEBIAN_PROMTOOL + "): the metrics "
                + "lint needs Prometheus's promtool. Run ./test, which installs it (Debian package prometheus), "
                + "or `sudo apt-get install -y prometheus`.");
    }

    private static String readAll(Process process) {
        try {
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
