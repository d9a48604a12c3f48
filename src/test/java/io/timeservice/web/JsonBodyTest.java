package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** How request bodies are read: limits, duplicates, encodings, and what a refusal says. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class JsonBodyTest {

    @LocalServerPort
    int port;

    private HttpProbe http;

    @BeforeEach
    void setUp() {
        http = new HttpProbe(port);
        http.json("POST", "/clock/advance", "{\"by\":1000000000000000}");   // drain what earlier tests left
    }

    @Test
    void parseErrors_describeTheMistake_withoutNamingJacksonClassesOrSettings() {
        String[] bodies = {
            "{\"id\":\"a\",\"delay\":1,\"payload\":" + "[".repeat(70) + "]".repeat(70) + "}",
            "{\"id\":\"a\",\"delay\":" + "9".repeat(StrictJsonConverter.MAX_NUMBER_LENGTH + 1) + "}",
            "{\"id\":\"a\",\"delay\":1,\"payload\":{\"" + "k".repeat(1100) + "\":1}}",
            "{\"id\":\"a\",\"delay\":1} {\"id\":\"b\"}",
            "{\"id\":\"a\",\"delay\":1,\"delay\":2}",
            "{\"id\":\"a\",\"delay\":tru}",
            "{\"id\":\"a\",",
        };
        for (String body : bodies) {
            HttpProbe.Reply reply = http.json("POST", "/timers", body);
            String shown = body.substring(0, Math.min(body.length(), 60));
            assertThat(reply.status()).as(shown).isEqualTo(400);
            assertThat(reply.code()).as(shown).isEqualTo("invalid_request");
            assertThat(reply.json().path("detail").asString()).as(shown)
                    .startsWith("the body is not valid JSON: ")
                    .doesNotContain("`", "Constraints", "Feature", "jackson", "java.", "Exception");
        }
    }

    @Test
    void payloadNumbers_comeBackWithTheValueSent_evenBeyondDoubleRangeOrPrecision() {
        String[] numbers = {"1e400", "-1E+400", "1e-400", "12345678901234567890.5", "0.1", "3.141592653589793238462643",
            "123456789012345678901234567890", "-0", "2.5E-3"};
        HttpProbe.Reply reply = http.json("POST", "/timers",
                "{\"id\":\"numbers\",\"delay\":5,\"payload\":[" + String.join(",", numbers) + "]}");
        assertThat(reply.status()).as(reply.text()).isEqualTo(201);
        JsonMapper exact = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
        for (String source : new String[] {reply.text(), http.get("/timers/numbers").text()}) {
            JsonNode payload = exact.readTree(source).path("payload");
            assertThat(payload.size()).as(source).isEqualTo(numbers.length);
            for (int i = 0; i < numbers.length; i++) {
                assertThat(payload.get(i).isNumber()).as(source).isTrue();
                assertThat(payload.get(i).decimalValue()).as(numbers[i] + " in " + source)
                        .isEqualByComparingTo(new BigDecimal(numbers[i]));
            }
        }
    }

    @Test
    void bodiesNotInUtf8_orWithAByteOrderMark_areRefused_andCreateNothing() {
        String valid = "{\"id\":\"enc\",\"delay\":5}";
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[][] bodies = {
            valid.getBytes(StandardCharsets.UTF_16BE),
            valid.getBytes(StandardCharsets.UTF_16LE),
            valid.getBytes(StandardCharsets.UTF_16),                 // with its BOM
            valid.getBytes(Charset.forName("UTF-32")),
            concat(bom, valid.getBytes(StandardCharsets.UTF_8)),
            "{\"id\":\"enc\",\"delay\":5,\"payload\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1),
            concat("{\"id\":\"enc\",\"delay\":5,\"payload\":\"".getBytes(StandardCharsets.UTF_8),
                    new byte[] {(byte) 0xC0, (byte) 0xAF, (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'}),
        };
        for (byte[] body : bodies) {
            HttpProbe.Reply reply = http.send("POST", "/timers", Map.of("Content-Type", "application/json"), body);
            assertThat(reply.status()).as(HexFormat.of().formatHex(body)).isEqualTo(400);
            assertThat(reply.code()).isEqualTo("invalid_request");
        }
        assertThat(http.get("/timers/enc").status()).isEqualTo(404);
        assertThat(http.json("POST", "/timers", "{\"id\":\"enc\",\"delay\":5,\"payload\":\"caf\u00e9 \ud83d\ude00\"}")
                .status()).isEqualTo(201);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    // ---- the stream limits, each at and beyond ----

    @Test
    void nestingDepth_64IsAccepted_65IsRefused() {
        // the body's object is level 1, so the payload gets 63 levels of arrays at the limit
        assertThat(add("depth-64", "[".repeat(StrictJsonConverter.MAX_NESTING_DEPTH - 1)
                + "]".repeat(StrictJsonConverter.MAX_NESTING_DEPTH - 1)).status()).isEqualTo(201);
        HttpProbe.Reply beyond = add("depth-65", "[".repeat(StrictJsonConverter.MAX_NESTING_DEPTH)
                + "]".repeat(StrictJsonConverter.MAX_NESTING_DEPTH));
        assertThat(beyond.status()).isEqualTo(400);
        assertThat(beyond.json().path("detail").asString()).contains("nesting depth");
    }

    @Test
    void tenThousandLevelsOfArrays_areRefusedAtTheDepthLimit() {
        HttpProbe.Reply reply = add("deep", "[".repeat(10_000) + "]".repeat(10_000));
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.code()).isEqualTo("invalid_request");
        assertThat(http.get("/timers/deep").status()).isEqualTo(404);
    }

    @Test
    void numberLength_atTheLimitParses_oneDigitMoreDoesNot() {
        assertThat(StrictJsonConverter.MAX_NUMBER_LENGTH).isEqualTo(1000);   // the README quotes it
        assertThat(add("num-1000", "1" + "0".repeat(StrictJsonConverter.MAX_NUMBER_LENGTH - 1)).status())
                .isEqualTo(201);
        assertThat(add("num-1001", "1" + "0".repeat(StrictJsonConverter.MAX_NUMBER_LENGTH)).code())
                .isEqualTo("invalid_request");
        // a delay of the longest parsed length is parsed, then refused for its value; a longer one never gets that far
        assertThat(http.json("POST", "/timers", "{\"id\":\"d\",\"delay\":"
                + "9".repeat(StrictJsonConverter.MAX_NUMBER_LENGTH) + "}").code()).isEqualTo("invalid_delay");
        assertThat(http.json("POST", "/timers", "{\"id\":\"d\",\"delay\":"
                + "9".repeat(StrictJsonConverter.MAX_NUMBER_LENGTH + 1) + "}").code()).isEqualTo("invalid_request");
        assertThat(http.json("POST", "/timers", "{\"id\":\"d\",\"delay\":1e999999999}").code())
                .isEqualTo("invalid_delay");
    }

    @Test
    void nameLength_1024IsAccepted_1025IsRefused() {
        assertThat(add("name-1024", "{\"" + "k".repeat(StrictJsonConverter.MAX_NAME_LENGTH) + "\":1}").status())
                .isEqualTo(201);
        HttpProbe.Reply beyond = add("name-1025", "{\"" + "k".repeat(StrictJsonConverter.MAX_NAME_LENGTH + 1)
                + "\":1}");
        assertThat(beyond.status()).isEqualTo(400);
        assertThat(beyond.json().path("detail").asString()).contains("Name length");
    }

    @Test
    void documentLength_aBodyOfExactlyTheCapIsRead_oneByteMoreIs413_withOrWithoutContentLength() {
        String head = "{\"id\":\"doc-cap\",\"delay\":5}";
        byte[] atCap = (head + " ".repeat(65536 - head.length())).getBytes(StandardCharsets.UTF_8);
        assertThat(atCap).hasSize(65536);
        assertThat(http.send("POST", "/timers", Map.of("Content-Type", "application/json"), atCap).status())
                .isEqualTo(201);
        byte[] beyond = (head + " ".repeat(65537 - head.length())).getBytes(StandardCharsets.UTF_8);
        HttpProbe.Reply declared = http.send("POST", "/timers", Map.of("Content-Type", "application/json"), beyond);
        assertThat(declared.status()).isEqualTo(413);
        assertThat(declared.code()).isEqualTo("payload_too_large");
        HttpProbe.Reply chunked = http.sendStreamed("POST", "/timers", Map.of("Content-Type", "application/json"),
                beyond);
        assertThat(chunked.status()).isEqualTo(413);
        assertThat(chunked.code()).isEqualTo("payload_too_large");
    }

    @Test
    void stringLength_aStringAsLongAsTheBodyAllows_isParsed_thenJudgedAsPayload() {
        // the parser's string limit equals the body cap, so a 60,000-character string passes the parser and meets
        // the payload limit (16 KiB) instead; one beyond the cap cannot arrive (see StrictJsonConverterTest)
        HttpProbe.Reply reply = add("long-string", "\"" + "s".repeat(60_000) + "\"");
        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.code()).isEqualTo("payload_too_large");
        assertThat(reply.json().path("detail").asString()).startsWith("payload is");
        assertThat(add("string-ok", "\"" + "s".repeat(16_000) + "\"").status()).isEqualTo(201);
    }

    @Test
    void duplicateKeys_areRefusedEverywhere_andChangeNothing() {
        assertThat(http.json("POST", "/timers", "{\"id\":\"dup\",\"delay\":5}").status()).isEqualTo(201);
        String before = http.get("/timers/dup").text();
        long now = http.get("/clock").json().path("now").asLong();
        String[][] calls = {
            {"POST", "/timers", "{\"id\":\"dup2\",\"delay\":1,\"delay\":-1}"},
            {"POST", "/timers", "{\"id\":\"dup2\",\"id\":\"dup3\",\"delay\":1}"},
            {"POST", "/timers", "{\"id\":\"dup2\",\"delay\":1,\"payload\":{\"a\":1,\"a\":2}}"},
            {"POST", "/timers", "{\"id\":\"dup2\",\"delay\":1,\"payload\":[{\"x\":{\"b\":1,\"b\":1}}]}"},
            {"PATCH", "/timers/dup", "{\"delay\":1,\"delay\":-1}"},
            {"PATCH", "/timers/dup", "{\"priority\":1,\"priority\":2}"},
            {"POST", "/clock/advance", "{\"by\":1,\"by\":2}"},
        };
        for (String[] call : calls) {
            HttpProbe.Reply reply = http.json(call[0], call[1], call[2]);
            assertThat(reply.status()).as(call[2]).isEqualTo(400);
            assertThat(reply.code()).as(call[2]).isEqualTo("invalid_request");
            assertThat(reply.json().path("detail").asString()).as(call[2]).contains("Duplicate");
        }
        assertThat(http.get("/timers/dup").text()).isEqualTo(before);
        assertThat(http.get("/timers/dup2").status()).isEqualTo(404);
        assertThat(http.get("/timers/dup3").status()).isEqualTo(404);
        assertThat(http.get("/clock").json().path("now").asLong()).isEqualTo(now);
    }

    private HttpProbe.Reply add(String id, String payload) {
        return http.json("POST", "/timers", "{\"id\":\"" + id + "\",\"delay\":5,\"payload\":" + payload + "}");
    }
}
