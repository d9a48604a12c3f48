package io.timeservice;

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
 * The packaged service jar running as a child process on a random port, for the integration tests (failsafe, after
 * {@code package}). The child is the JVM itself ({@code java -jar}, no shell or wrapper in between), so
 * {@link #kill} is a SIGKILL of the service. Readiness is the start-up log line that names the port, read from the
 * child's output as it is printed: no polling, no sleeping.
 */
public final class ServiceProcess implements AutoCloseable {

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

    /** The service with a journal in {@code dataDir} (the memory store), plus {@code extraArgs}. */
    public static ServiceProcess startWithJournal(Path dataDir, String... extraArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("--timeservice.data-dir=" + dataDir,
                "--timeservice.durability=journal"));
        args.addAll(List.of(extraArgs));
        return start(args.toArray(String[]::new));
    }

    /** The service with {@code args} after the ones every test wants (random port, quiet log but the ready line). */
    public static ServiceProcess start(String... args) throws IOException {
        String jar = System.getProperty("timeservice.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("the packaged jar is needed (system property timeservice.jar, set by "
                    + "failsafe after `package`), found: " + jar);
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString(), "-Xmx1g", "-XX:TieredStopAtLevel=1", "-jar", jar,
                "--server.port=0", "--spring.main.banner-mode=off", "--logging.level.root=WARN",
                "--logging.level.io.timeservice=INFO"));
        command.addAll(List.of(args));
        return new ServiceProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** Waits for the ready line; fails with the child's output if it exits or takes longer than two minutes. */
    public int awaitPort() throws Exception {
        try {
            return port.get(2, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new AssertionError("service did not start: " + String.join("\n", output()), e);
        }
    }

    public String baseUrl() throws Exception {
        return "http://127.0.0.1:" + awaitPort();
    }

    /**
     * SIGKILL: no shutdown hook, no flush. Returns the exit status, 137 (128 + 9) when the signal ended the JVM, or
     * -1 if it did not exit within a minute.
     */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        return process.waitFor(1, TimeUnit.MINUTES) ? process.exitValue() : -1;
    }

    public synchronized List<String> output() {
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
