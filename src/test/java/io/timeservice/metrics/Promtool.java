package io.timeservice.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.Executables;

/**
 * Runs Prometheus's own linter, {@code promtool check metrics} (Debian package {@code prometheus}), over a text
 * exposition, and any other promtool command (the alert rules' checks and unit tests). A missing promtool fails
 * the test, naming {@code ./test}, which installs it.
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

    /** Runs {@code promtool} with {@code arguments} (e.g. {@code check rules FILE}) and reports its output. */
    static Report run(String... arguments) {
        Path promtool = find();
        List<String> command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Report(process.waitFor(), output.lines().filter(line -> !line.isBlank()).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for promtool", e);
        }
    }

    private static Path find() {
        return Executables.find("PROMTOOL_BINARY",
                "the metrics lint and the alert rule tests need Prometheus's promtool (Debian package prometheus)",
                "promtool");
    }

    static Report checkMetrics(String exposition) {
        Path promtool = find();
        try {
            Process process = new ProcessBuilder(promtool.toString(), "check", "metrics")
                    .redirectErrorStream(true).start();
            // promtool reads all of its input before it writes a line, so writing first cannot deadlock.
            try (OutputStream stdin = process.getOutputStream()) {
                stdin.write(exposition.getBytes(StandardCharsets.UTF_8));
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exitCode = process.waitFor();
            return new Report(exitCode, output.lines().filter(line -> !line.isBlank()).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + promtool + " check metrics", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for promtool", e);
        }
    }
}
