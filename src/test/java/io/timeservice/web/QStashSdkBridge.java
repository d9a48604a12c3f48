package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Node process {@code src/test/node/qstash-bridge.mjs}: the official {@code @upstash/qstash} SDK, unchanged, whose
 * {@code Client} calls the service as a test tells it, one call at a time, and a loopback receiver that verifies what
 * arrives with the SDK's {@code Receiver}. Each call waits at most 30 s for its answer.
 */
final class QStashSdkBridge implements AutoCloseable {

    static final Path NODE_DIR = Path.of("src/test/node");
    private static final JsonMapper JSON = JsonMapper.shared();

    private final Process node;
    private final BufferedReader out;
    private final Writer in;
    private final File errors;
    final String receiver;

    QStashSdkBridge(int port, String currentKey, String nextKey) throws IOException {
        assertThat(NODE_DIR.resolve("node_modules/@upstash/qstash"))
                .as("the official SDK, which ./test installs (npm ci in src/test/node)").isDirectory();
        errors = File.createTempFile("qstash-bridge", ".log");
        node = new ProcessBuilder(System.getenv().getOrDefault("NODE_BINARY", "node"), "qstash-bridge.mjs",
                "http://127.0.0.1:" + port, currentKey, nextKey).directory(NODE_DIR.toFile())
                .redirectError(errors).start();
        out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
        in = new OutputStreamWriter(node.getOutputStream(), StandardCharsets.UTF_8);
        receiver = line().path("receiver").asString();
        assertThat(receiver).startsWith("http://127.0.0.1:");
    }

    /** The SDK call's result; fails the test when the SDK threw. */
    JsonNode call(String call, Object... args) {
        JsonNode answer = answer(call, args);
        assertThat(answer.has("result")).as(call + " answered " + answer).isTrue();
        return answer.get("result");
    }

    /** What the SDK threw: {@code {"error", "status"}}; fails the test when the call succeeded. */
    JsonNode failure(String call, Object... args) {
        JsonNode answer = answer(call, args);
        assertThat(answer.has("error")).as(call + " answered " + answer).isTrue();
        return answer;
    }

    /** What arrived at the receiver so far, in order. */
    List<JsonNode> arrivals() {
        return List.copyOf(((ArrayNode) call("receiver.arrivals")).valueStream().toList());
    }

    private JsonNode answer(String call, Object... args) {
        ObjectNode command = JSON.createObjectNode().put("call", call);
        command.set("args", JSON.valueToTree(List.of(args)));
        try {
            in.write(JSON.writeValueAsString(command) + "\n");
            in.flush();
            return line();
        } catch (IOException e) {
            throw new AssertionError("the SDK bridge is gone: " + log(), e);
        }
    }

    private JsonNode line() {
        try {
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(30, TimeUnit.SECONDS);
            assertThat(line).as("the SDK bridge ended: " + log()).isNotNull();
            return JSON.readTree(line);
        } catch (Exception e) {
            throw new AssertionError("no answer from the SDK bridge: " + log(), e);
        }
    }

    private String log() {
        try {
            return Files.readString(errors.toPath());
        } catch (IOException e) {
            return "(no log)";
        }
    }

    @Override
    public void close() throws Exception {
        in.close();
        if (!node.waitFor(10, TimeUnit.SECONDS)) {
            node.destroyForcibly();
        }
        Files.deleteIfExists(errors.toPath());
    }
}
