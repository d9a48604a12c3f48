package io.timeservice.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.timeservice.Executables;

/**
 * Runs Prometheus's own linter, {@code promtool check metrics} (Debian package {@code prometheus}), over a text
 * exposition. A missing promtool fails the test, naming {@code ./test}, which installs it.
 */
final class Promtool {

    private Promtool() {
    }

    /** What promtool said about {@code exposition}: one line per problem, empty when it passes. */
    record Report(int exitCode, List<String> problems) {
        boolean clean() {
            return exitCode == 0 && problems.isEmpty();
        }
    }

    static Report checkMetrics(String exposition) {
        Path promtool = Executables.find("PROMTOOL_BINARY",
                "the metrics lint needs Prometheus's promtool (Debian package prometheus)", "promtool");
        Process process;
        try {
            process = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + promtool, e);
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
        } catch (ExecutionException e) {
            throw new AssertionError("could not read promtool's output", e.getCause());
        }
    }

    private static String readAll(Process process) {
        try {
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
