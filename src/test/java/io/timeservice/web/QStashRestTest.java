package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.timeservice.push.Receiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * QStash's publish (issue 47) over HTTP without the SDK (QStashSdkTest runs the SDK): a delayed message on the virtual
 * {@code qstash-r<retries>} clock arrives once the clock is advanced, with its body, forwarded headers and a JWT
 * signature; a deduplication id refuses a second message; bad headers are QStash's {@code {"error"}}. The publishes go
 * through the JDK's client, not RestAssured's contract filter, since the destination URL is the rest of the path.
 */
@TestPropertySource(properties = {"timeservice.push.allow-private-targets=true",
        "timeservice.qstash.current-signing-key=sig_current_test"})
class QStashRestTest extends RestTestSupport {

    private static final JsonMapper JSON = JsonMapper.shared();
    private final HttpClient http = HttpClient.newHttpClient();
    private Receiver receiver;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new Receiver();
    }

    @AfterEach
    void stopReceiver() {
        deleteClocksButDefault();
        receiver.close();
    }

    private HttpResponse<String> publish(String destination, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v2/publish/"
                + destination)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void publish_withADelay_arrivesSignedWhenTheVirtualClockPassesIt() throws Exception {
        String destination = receiver.url("/hook?x=1");
        HttpResponse<String> published = publish(destination, "{\"hello\":\"world\"}",
                "Content-Type", "application/json", "Upstash-Delay", "10s", "Upstash-Forward-X-Tenant", "acme");
        assertThat(published.statusCode()).as(published.body()).isEqualTo(201);
        String messageId = JSON.readTree(published.body()).get("messageId").asString();
        assertThat(messageId).startsWith("msg_");

        given().get("/clocks/qstash-r3").then().statusCode(200).body("size", equalTo(1)).body("mode", equalTo("virtual"));
        json("{\"by\":10000}").post("/clocks/qstash-r3/advance").then().statusCode(200);

        Receiver.Request arrived = receiver.next();
        assertThat(arrived.path()).isEqualTo("/hook");
        assertThat(arrived.body()).isEqualTo("{\"hello\":\"world\"}");
        assertThat(arrived.header("Content-Type")).isEqualTo("application/json");
        assertThat(arrived.header("X-Tenant")).isEqualTo("acme");
        assertThat(arrived.header("Upstash-Message-Id")).isEqualTo(messageId);
        assertThat(arrived.header("Upstash-Retried")).isEqualTo("0");
        JsonNode claims = verifiedClaims(arrived.header("Upstash-Signature"), "sig_current_test");
        assertThat(claims.get("iss").asString()).isEqualTo("Upstash");
        assertThat(claims.get("sub").asString()).isEqualTo(destination);
        assertThat(claims.get("body").asString()).isEqualTo(Base64.getUrlEncoder().encodeToString(
                MessageDigest.getInstance("SHA-256").digest(arrived.body().getBytes(StandardCharsets.UTF_8))));
        assertThat(claims.get("exp").asLong()).isEqualTo(claims.get("iat").asLong() + 300);
        awaitDeliveries("qstash-r3", "{\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":0}");
    }

    @Test
    void publish_toAPausedQStashClock_isTakenAndHeld_untilTheClockIsResumed() throws Exception {
        String destination = receiver.url("/held");
        assertThat(publish(destination, "first", "Upstash-Retries", "2").statusCode()).isEqualTo(201);
        given().post("/clocks/qstash-r2/pause").then().statusCode(200);

        HttpResponse<String> published = publish(destination, "second", "Upstash-Retries", "2");
        assertThat(published.statusCode()).as("a paused clock still takes messages: " + published.body())
                .isEqualTo(201);
        json("{\"by\":0}").post("/clocks/qstash-r2/advance").then().statusCode(200);
        assertThat(receiver.nextWithin(200)).as("held while paused").isNull();

        given().post("/clocks/qstash-r2/resume").then().statusCode(200);
        assertThat(List.of(receiver.next().body(), receiver.next().body())).containsExactlyInAnyOrder("first", "second");
    }

    @Test
    void publish_withTheSameDeduplicationId_storesOneMessage() throws Exception {
        String destination = receiver.url("/once");
        HttpResponse<String> first = publish(destination, "a", "Upstash-Deduplication-Id", "order-42",
                "Upstash-Delay", "1m", "Upstash-Retries", "0");
        HttpResponse<String> second = publish(destination, "b", "Upstash-Deduplication-Id", "order-42",
                "Upstash-Delay", "1m", "Upstash-Retries", "0");

        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(second.statusCode()).as(second.body()).isEqualTo(202);
        JsonNode again = JSON.readTree(second.body());
        assertThat(again.get("messageId").asString()).isEqualTo(JSON.readTree(first.body()).get("messageId").asString());
        assertThat(again.get("deduplicated").asBoolean()).isTrue();
        given().get("/clocks/qstash-r0").then().statusCode(200).body("size", equalTo(1));

        json("{\"by\":60000}").post("/clocks/qstash-r0/advance").then().statusCode(200);
        assertThat(receiver.next().body()).isEqualTo("a");
        HttpResponse<String> afterwards = publish(destination, "c", "Upstash-Deduplication-Id", "order-42",
                "Upstash-Retries", "0");
        assertThat(afterwards.statusCode()).as("reserved by the dedupe window").isEqualTo(202);
    }

    @Test
    void publish_refusesBadHeadersAndTargets_asQStashErrors() throws Exception {
        String destination = receiver.url("/x");
        for (String[] headers : new String[][] {{"Upstash-Delay", "soon"}, {"Upstash-Retries", "-1"},
                {"Upstash-Timeout", "2h"}, {"Upstash-Method", "TRACE"}, {"Upstash-Callback", "http://127.0.0.1:1/"}}) {
            HttpResponse<String> refused = publish(destination, "", headers);
            assertThat(refused.statusCode()).as(String.join(" ", headers)).isEqualTo(400);
            assertThat(JSON.readTree(refused.body()).get("error").asString()).as(refused.body()).isNotEmpty();
        }
        HttpResponse<String> large = publish(destination, "x".repeat(13_000));
        assertThat(large.statusCode()).as(large.body()).isEqualTo(413);
        assertThat(JSON.readTree(large.body()).get("error").asString()).contains("max-payload-bytes");
        HttpResponse<String> ftp = publish("ftp://127.0.0.1/x", "");
        assertThat(ftp.statusCode()).as(ftp.body()).isEqualTo(400);
        assertThat(JSON.readTree(ftp.body()).get("error").asString()).contains("http");
        given().get("/clocks/qstash-r3").then().statusCode(404);
    }

    /** The JWT's claims once its HS256 signature is checked with {@code key}. */
    private static JsonNode verifiedClaims(String jwt, String key) throws Exception {
        String[] parts = jwt.split("\\.");
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        assertThat(Base64.getUrlDecoder().decode(parts[2]))
                .isEqualTo(mac.doFinal((parts[0] + "." + parts[1]).getBytes(StandardCharsets.UTF_8)));
        return JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
    }
}
