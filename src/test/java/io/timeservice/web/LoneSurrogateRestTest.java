package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;

import io.timeservice.model.Limits;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A lone UTF-16 surrogate, escaped in the JSON text ({@code "\udc00"}), is no character: it is refused wherever it
 * sits in a body (400 {@code invalid_request} saying where), and the refusal changes nothing. A proper pair
 * ({@code "\ud83d\ude00"}) is one character and comes back exactly. Bodies are sent as the raw bytes of the JSON
 * text, so the escapes reach the service as written here (backslash, u, four hex digits).
 */
class LoneSurrogateRestTest extends RestTestSupport {

    /** The emoji U+1F600 as a Java string (one code point, two chars). */
    private static final String GRINNING = new String(Character.toChars(0x1F600));

    private HttpProbe http;
    private long lastSequence;

    @BeforeEach
    void someTimersPending() {
        http = new HttpProbe(port);
        add("A", 5);
        lastSequence = add("{\"id\":\"B\",\"delay\":8,\"payload\":{\"k\":[1,\"v\"]}}").jsonPath().getLong("sequence");
    }

    static Stream<Arguments> bodiesWithALoneSurrogate() {
        return Stream.of(
                refused("POST", "/timers", "{\"id\":\"N\",\"delay\":1,\"payload\":\"\\udc00\"}", "\"/payload\""),
                refused("POST", "/timers", "{\"id\":\"N\",\"delay\":1,\"payload\":\"x\\ud83d\"}", "\"/payload\""),
                refused("POST", "/timers", "{\"id\":\"N\",\"delay\":1,\"payload\":\"\\ud83dx\"}", "\"/payload\""),
                refused("POST", "/timers", "{\"id\":\"N\",\"delay\":1,\"payload\":\"\\ude00\\ud83d\"}", "\"/payload\""),
                refused("POST", "/timers", "{\"id\":\"N\",\"delay\":1,\"payload\":{\"a\":[1,{\"b/c\":\"ok\","
                        + "\"d\":\"x\\udfff\"}]}}", "\"/payload/a/1/d\""),
                refused("POST", "/timers", "{\"id\":\"N\",\"delay\":1,\"payload\":{\"a\":{\"\\udc00\":1}}}",
                        "member name under \"/payload/a\""),
                refused("POST", "/timers", "{\"id\":\"N\",\"delay\":1,\"payload\":[[[\"\\ud800\"]]]}",
                        "\"/payload/0/0/0\""),
                refused("POST", "/timers", "{\"id\":\"N\\udc00\",\"delay\":1}", "\"/id\""),
                // an unknown member's name would be echoed in the detail: the surrogate is found first
                refused("POST", "/timers", "{\"id\":\"N\",\"delay\":1,\"\\udc00\":1}",
                        "member name under the top level"),
                refused("PATCH", "/timers/A", "{\"delay\":1,\"x\\ud800\":2}", "member name under the top level"),
                refused("POST", "/clock/advance", "{\"by\":10,\"\\udbff\":0}", "member name under the top level"));
    }

    private static Arguments refused(String method, String path, String jsonText, String where) {
        return Arguments.of(method, path, jsonText, where);
    }

    @ParameterizedTest(name = "[{index}] {0} {1} {2}")
    @MethodSource("bodiesWithALoneSurrogate")
    void aLoneSurrogate_anywhereInTheBody_isRefusedSayingWhere_andChangesNothing(String method, String path,
                                                                                  String jsonText, String where) {
        String before = observableState();

        HttpProbe.Reply reply = http.send(method, path, Map.of("Content-Type", "application/json"),
                jsonText.getBytes(StandardCharsets.US_ASCII));

        assertThat(reply.status()).as(reply.text()).isEqualTo(400);
        assertThat(reply.isProblem()).isTrue();
        JsonNode problem = reply.json();
        assertThat(problem.path("code").asString()).isEqualTo("invalid_request");
        assertThat(problem.path("detail").asString()).contains("lone UTF-16 surrogate").contains(where);
        assertThat(problem.path("detail").asString().codePoints().anyMatch(c -> Character.getType(c)
                == Character.SURROGATE)).isFalse();
        assertEquals(before, observableState());
        assertEquals(lastSequence + 1, nextSequence(), "a refused request must not use up a sequence");
    }

    @Test
    void aSurrogatePair_isOneCharacter_acceptedAndReturnedExactly_byEveryAnswerThatCarriesIt() {
        String escaped = "{\"id\":\"E\",\"delay\":20,\"payload\":{\"\\ud83d\\ude00\":[\"a\\ud83d\\ude00b\"],"
                + "\"s\":\"\\ud83d\\ude00\"}}";
        JsonNode expected = JsonMapper.shared().readTree("{\"" + GRINNING + "\":[\"a" + GRINNING + "b\"],\"s\":\""
                + GRINNING + "\"}");

        HttpProbe.Reply created = http.send("POST", "/timers", Map.of("Content-Type", "application/json"),
                escaped.getBytes(StandardCharsets.US_ASCII));

        assertThat(created.status()).as(created.text()).isEqualTo(201);
        assertThat(created.json().path("payload")).isEqualTo(expected);
        assertThat(http.get("/timers/E").json().path("payload")).isEqualTo(expected);
        assertThat(http.get("/timers").json().path("timers").get(2).path("payload")).isEqualTo(expected);
        HttpProbe.Reply fired = http.json("POST", "/clock/advance", "{\"by\":20}");
        assertThat(fired.status()).isEqualTo(200);
        assertThat(fired.json().path("fired").valueStream().map(timer -> timer.path("id").asString()))
                .containsExactly("A", "B", "E");
        assertThat(fired.json().path("fired").get(2).path("payload")).isEqualTo(expected);
    }

    @Test
    void anUnknownIdCutForTheDetail_isNeverCutInsideAPair() {
        String id = "a".repeat(Limits.MAX_ID_LENGTH - 1) + GRINNING + "z";

        HttpProbe.Reply reply = http.get("/timers/" + URLEncoder.encode(id, StandardCharsets.UTF_8));

        assertThat(reply.status()).as(reply.text()).isEqualTo(404);
        String detail = reply.json().path("detail").asString();
        assertThat(detail).contains("a".repeat(Limits.MAX_ID_LENGTH - 1)).endsWith("...");
        assertThat(detail.codePoints().anyMatch(c -> Character.getType(c) == Character.SURROGATE)).isFalse();
    }
}
