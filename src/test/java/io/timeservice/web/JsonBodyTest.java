package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
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
            "{\"id\":\"a\",\"delay\":" + "9".repeat(70) + "}",
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
            valid.getBytes(java.nio.charset.Charset.forName("UTF-32")),
            concat(bom, valid.getBytes(StandardCharsets.UTF_8)),
            "{\"id\":\"enc\",\"delay\":5,\"payload\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1),
            concat("{\"id\":\"enc\",\"delay\":5,\"payload\":\"".getBytes(StandardCharsets.UTF_8),
                    new byte[] {(byte) 0xC0, (byte) 0xAF, (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'}),
        };
        for (byte[] body : bodies) {
            HttpProbe.Reply reply = http.send("POST", "/timers", Map.of("Content-Type", "application/json"), body);
            assertThat(reply.status()).as(java.util.HexFormat.of().formatHex(body)).isEqualTo(400);
            assertThat(reply.code()).isEqualTo("invalid_request");
        }
        assertThat(http.get("/timers/enc").status()).isEqualTo(404);
        assertThat(http.json("POST", "/timers", "{\"id\":\"enc\",\"delay\":5,\"payload\":\"caf\u00e9 \ud83d\ude00\"}")
                .status()).isEqualTo(201);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
