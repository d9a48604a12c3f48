package io.timeservice.journal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged service jar running as a child process on a random port. Readiness is the start-up log line that
 * names the port, read from the child's output as it is printed: no polling, no sleeping.
 */
final class ServiceProcess implements AutoCloseable {

    private static final Pattern READY = Pattern.compile("TimeService ready: port=(\\d+)");

    private final Process process;
    private final CompletableFuture<Integer> port = new CompletableFuture<>();
    private final List<String> output = new ArrayList<>();

    private ServiceProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::readOutput, "service-output");
        reader.setDaemon(true);
        reader.start();
    }

    static ServiceProcess start(Path dataDir, String... extraArgs) throws IOException {
        String jar = System.getProperty("timeservice.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("the packaged jar is needed (system property timeservice.jar, set by "
                    + "failsafe after `package`), found: " + jar);
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString(), "-Xmx1g", "-XX:TieredStopAtLevel=1", "-jar", jar,
                "--server.port=0", "--timeservice.data-dir=" + dataDir, "--timeservice.durability=journal",
                "--spring.main.banner-mode=off", "--logging.level.root=WARN",
                "--logging.level.io.timeservice=INFO"));
        command.addAll(List.of(extraArgs));
        return new ServiceProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** Waits for the ready line; fails with the child's output if it exits or takes longer than two minutes. */
    int awaitPort() throws Exception {
        try {
            return port.get(2, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new AssertionError("service did not start: " + String.join("\n", output()), e);
        }
    }

    String baseUrl() throws Exception {
        return "http://127.0.0.1:" + awaitPort();
    }

    /** SIGKILL: no shutdown hook, no flush. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(1, TimeUnit.MINUTES);
    }

    synchronized List<String> output() {
        return List.copyOf(output);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }

    private void readOutput() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (this) {
                    output.add(line);
                }
                Matcher matcher = READY.matcher(line);
                if (matcher.find()) {
                    port.complete(Integer.parseInt(matcher.group(1)));
                }
            }
        } catch (IOException e) {
            // the process died; the exit below reports it
        }
        port.completeExceptionally(new IllegalStateException("service exited with " + exitCode()));
    }

    private String exitCode() {
        try {
            return String.valueOf(process.waitFor());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
