package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official {@code @upstash/qstash} SDK, unchanged, against the service (issue 47): its {@code Client} publishes
 * with a 10 s delay to a loopback receiver of the Node script {@code src/test/node/qstash-publish.mjs}; the test
 * advances the virtual clock {@code qstash-r3} with TimeService's own API, and the receiver verifies the signature with
 * the SDK's {@code Receiver} and reports the body and headers. Needs Node and {@code src/test/node/node_modules}
 * ({@code ./test} runs {@code npm ci} there when missing); skipped without them.
 */
@TestPropertySource(properties = {"timeservice.push.allow-private-targets=true",
        "timeservice.qstash.current-signing-key=sig_current_test"})
class QStashSdkTest extends RestTestSupport {

    private static final Path NODE_DIR = Path.of("src/test/node");
    private static final JsonMapper JSON = JsonMapper.shared();

    @Test
    void sdkClient_publishesWithADelay_andItsReceiverVerifiesWhatArrivesAfterTheAdvance() throws Exception {
        assertThat(NODE_DIR.resolve("node_modules/@upstash/qstash"))
                .as("the official SDK, which ./test installs (npm ci in src/test/node)").isDirectory();
        Process node = new ProcessBuilder(System.getenv().getOrDefault("NODE_BINARY", "node"), "qstash-publish.mjs", "http://127.0.0.1:" + port,
                "sig_current_test", "sig_next_test").directory(NODE_DIR.toFile()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(),
                StandardCharsets.UTF_8))) {
            JsonNode published = JSON.readTree(out.readLine());
            assertThat(published.path("messageId").asString()).as(published.toString()).startsWith("msg_");

            json("{\"by\":10000}").post("/clocks/qstash-r3/advance").then().statusCode(200);

            String line = out.readLine();
            JsonNode arrived = JSON.readTree(line);
            assertThat(arrived.path("verified").asBoolean()).as(line).isTrue();
            assertThat(arrived.path("body").asString()).isEqualTo("{\"hello\":\"world\"}");
            assertThat(arrived.path("method").asString()).isEqualTo("POST");
            assertThat(arrived.path("tenant").asString()).isEqualTo("acme");
            assertThat(arrived.path("contentType").asString()).isEqualTo("application/json");
            assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(node.exitValue()).isZero();
        } finally {
            node.destroyForcibly();
            deleteClocksButDefault();
        }
    }
}
