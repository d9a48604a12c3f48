package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.web.JsonRequest.Ack;
import io.timeservice.web.JsonRequest.AddTimer;
import io.timeservice.web.JsonRequest.Advance;
import io.timeservice.web.JsonRequest.Claim;
import io.timeservice.web.JsonRequest.ClockMode;
import io.timeservice.web.JsonRequest.DeliveryMode;
import io.timeservice.web.JsonRequest.EditTimer;
import io.timeservice.web.JsonRequest.Extend;
import io.timeservice.web.JsonRequest.Nack;
import io.timeservice.web.JsonRequest.PutClock;
import io.timeservice.web.JsonRequest.Retry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.mock.http.MockHttpInputMessage;

/**
 * The strict mapper met directly: every kind of coercion refused with its member's code, absent and {@code null}
 * told apart, and the parser's string and document limits (equal to the body cap, which the HTTP path enforces
 * before parsing) at and beyond, on a small cap.
 */
class StrictJsonConverterTest {

    private static final int CAP = 1024;
    /** Bound as the service binds them (defaults for every other setting), so new settings need no change here. */
    private final StrictJsonConverter json = new StrictJsonConverter(new Binder(new MapConfigurationPropertySource(
            Map.of("timeservice.limits.max-body-bytes", CAP, "timeservice.limits.max-payload-bytes", 100)))
            .bindOrCreate("timeservice", TimeServiceProperties.class));

    @ParameterizedTest
    @ValueSource(strings = {"\"5\"", "2.5", "5.0", "1e3", "1E+3", "true", "false", "null", "{}", "[]", "[5]", "\"\"",
        "1e400", "-0.0", "9223372036854775808", "-9223372036854775809"})
    void noValueButAJsonIntegerIsAnInteger(String value) {
        assertRefused(AddTimer.class, "{\"id\":\"N\",\"delay\":" + value + "}", ErrorCode.INVALID_DELAY);
        assertRefused(AddTimer.class, "{\"id\":\"N\",\"delay\":1,\"priority\":" + value + "}",
                ErrorCode.INVALID_PRIORITY);
        assertRefused(EditTimer.class, "{\"delay\":" + value + "}", ErrorCode.INVALID_DELAY);
        assertRefused(EditTimer.class, "{\"priority\":" + value + "}", ErrorCode.INVALID_PRIORITY);
        assertRefused(Advance.class, "{\"by\":" + value + "}", ErrorCode.INVALID_ADVANCE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "1.5", "true", "{}", "[\"a\"]"})
    void noValueButAJsonStringIsAnId(String value) {
        assertRefused(AddTimer.class, "{\"id\":" + value + ",\"delay\":1}", ErrorCode.INVALID_ID);
    }

    @Test
    void integersBind_asSent_andAbsentOptionalMembersAreNull() {
        assertThat(read(AddTimer.class, "{\"id\":\"N\",\"delay\":-1,\"priority\":-2147483648}"))
                .isEqualTo(new AddTimer("N", -1L, null, Integer.MIN_VALUE, null, null, null));   // ranges are the scheduler's
        assertThat(read(AddTimer.class, "{\"delay\":0,\"id\":\"N\"}")).isEqualTo(new AddTimer("N", 0L, null, null, null, null, null));
        assertThat(read(EditTimer.class, "{}")).isEqualTo(new EditTimer(null, null, null));
        assertThat(read(EditTimer.class, "{\"priority\":3}")).isEqualTo(new EditTimer(null, null, 3));
        assertThat(read(Advance.class, "{\"by\":1000000000000001}"))
                .isEqualTo(new Advance(1000000000000001L, null));
        assertThat(read(Advance.class, "{\"to\":7}")).isEqualTo(new Advance(null, 7L));
    }

    @Test
    void payloadNumbers_keepTheirText() {
        AddTimer add = read(AddTimer.class,
                "{\"id\":\"N\",\"delay\":1,\"payload\":[1e400, 0.1 ,-0.0,123456789012345678901]}");
        assertThat(json.payloadText(add.payload())).isEqualTo("[1e400,0.1,-0.0,123456789012345678901]");
        assertThat(json.payloadText(read(AddTimer.class, "{\"id\":\"N\",\"delay\":1,\"payload\":null}").payload()))
                .isNull();
    }

    @Test
    void missingAndUnknownMembers_areInvalidRequest_whateverTheirName() {
        assertRefused(AddTimer.class, "{\"delay\":1}", ErrorCode.INVALID_REQUEST, "member \"id\" is required");
        // delay and at are each optional here, as an advance's by and to; "exactly one of them" is TimerRules'
        assertThat(read(AddTimer.class, "{\"id\":\"N\"}")).isEqualTo(new AddTimer("N", null, null, null, null, null, null));
        assertRefused(AddTimer.class, "{\"id\":\"N\",\"at\":null}", ErrorCode.INVALID_DELAY, "at must be");
        // an advance's by and to are each optional here; "exactly one of them" is the scheduler's (ClocksRestTest)
        assertThat(read(Advance.class, "{}")).isEqualTo(new Advance(null, null));
        assertRefused(Advance.class, "{\"by\":1,\"delay\":1}", ErrorCode.INVALID_REQUEST, "unknown member \"delay\"");
        assertRefused(EditTimer.class, "{\"id\":\"A\"}", ErrorCode.INVALID_REQUEST, "unknown member \"id\"");
    }

    @Test
    void documentOfExactlyTheCap_parses_oneCharacterMoreDoesNot() {
        String head = "{\"id\":\"x\",\"delay\":1}";
        assertThat(read(AddTimer.class, head + " ".repeat(CAP - head.length())).id()).isEqualTo("x");
        assertRefused(AddTimer.class, head + " ".repeat(CAP + 1 - head.length()), ErrorCode.INVALID_REQUEST,
                "Document length");
    }

    @Test
    void stringOfTheLongestLengthADocumentCanHold_parses_oneLongerDoesNot() {
        String open = "{\"delay\":1,\"id\":\"";
        String close = "\"}";
        int longest = CAP - open.length() - close.length();
        assertThat(read(AddTimer.class, open + "i".repeat(longest) + close).id()).hasSize(longest);
        assertRefused(AddTimer.class, open + "i".repeat(CAP + 1) + close, ErrorCode.INVALID_REQUEST, "length");
    }

    @Test
    void refusals_areInvalidRequest_withoutInternals() {
        assertRefused(AddTimer.class, "[".repeat(65) + "]".repeat(65), ErrorCode.INVALID_REQUEST,
                "nesting depth (65) exceeds the maximum allowed (64)");
    }

    @Test
    void withoutInternals_cutsJacksonReferences() {
        assertThat(StrictJsonConverter.withoutInternals("Document nesting depth (65) exceeds the maximum allowed "
                + "(64, from `StreamReadConstraints.getMaxNestingDepth()`)"))
                .isEqualTo("Document nesting depth (65) exceeds the maximum allowed (64)");
        assertThat(StrictJsonConverter.withoutInternals("Trailing token (of type START_OBJECT) found after value "
                + "(bound as `tools.jackson.databind.JsonNode`): not allowed as per "
                + "`DeserializationFeature.FAIL_ON_TRAILING_TOKENS`"))
                .isEqualTo("Trailing token (of type START_OBJECT) found after value");
        assertThat(StrictJsonConverter.withoutInternals("odd `x.y.Z` here")).isEqualTo("odd a value here");
        assertThat(StrictJsonConverter.withoutInternals(null)).isEqualTo("malformed JSON");
    }

    @Test
    void clockSettingsBind_byTheirJsonNames_andRetryNumbersMayBeIntegersOrFractions() {
        assertThat(read(PutClock.class, "{\"mode\":\"system\",\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":3,"
                + "\"initialBackoff\":100,\"multiplier\":2,\"maxBackoff\":1000,\"jitter\":0}}"))
                .isEqualTo(new PutClock(null, ClockMode.SYSTEM, DeliveryMode.QUEUE, new Retry(3, 100L, 2.0, 1000L, 0.0)));
        assertThat(read(PutClock.class, "{\"retry\":{\"multiplier\":1.5,\"jitter\":0.25}}").retry())
                .isEqualTo(new Retry(null, null, 1.5, null, 0.25));
        assertThat(read(PutClock.class, "{}")).isEqualTo(new PutClock(null, null, null, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"VIRTUAL\"", "\"Virtual\"", "\"real\"", "\"\"", "0", "1", "null", "true", "{}"})
    void aModeOrDeliveryIsOneOfItsLowerCaseNames(String value) {
        assertRefused(PutClock.class, "{\"mode\":" + value + "}", ErrorCode.INVALID_REQUEST, "mode must be");
        assertRefused(PutClock.class, "{\"delivery\":" + value + "}", ErrorCode.INVALID_REQUEST, "delivery must be");
    }

    @Test
    void aRetryMemberIsNamedByItsPointer_andAnUnknownOneByWhereItSits() {
        assertRefused(PutClock.class, "{\"retry\":{\"maxAttempts\":\"3\"}}", ErrorCode.INVALID_REQUEST,
                "/retry/maxAttempts must be");
        assertRefused(PutClock.class, "{\"retry\":{\"maxAttempts\":2.5}}", ErrorCode.INVALID_REQUEST,
                "/retry/maxAttempts");
        assertRefused(PutClock.class, "{\"retry\":{\"multiplier\":\"2\"}}", ErrorCode.INVALID_REQUEST,
                "/retry/multiplier");
        assertRefused(PutClock.class, "{\"retry\":{\"jitter\":null}}", ErrorCode.INVALID_REQUEST, "/retry/jitter");
        assertRefused(PutClock.class, "{\"retry\":{\"backoff\":1}}", ErrorCode.INVALID_REQUEST,
                "unknown member \"backoff\" at /retry");
        assertRefused(PutClock.class, "{\"retry\":[]}", ErrorCode.INVALID_REQUEST, "retry must be a JSON object");
        assertRefused(PutClock.class, "{\"retry\":null}", ErrorCode.INVALID_REQUEST, "retry");
    }

    @Test
    void deliveryBodies_bindStrictly() {
        assertThat(read(Claim.class, "{}")).isEqualTo(new Claim(null, null, null));
        assertThat(read(Claim.class, "{\"max\":5,\"lease\":1000,\"wait\":0}")).isEqualTo(new Claim(5, 1000L, 0L));
        assertRefused(Claim.class, "{\"max\":\"5\"}", ErrorCode.INVALID_LIMIT, "max must be");
        assertRefused(Claim.class, "{\"wait\":1.5}", ErrorCode.INVALID_REQUEST, "wait must be");
        assertRefused(Claim.class, "{\"lease\":null}", ErrorCode.INVALID_REQUEST, "lease must be");
        assertRefused(Claim.class, "{\"count\":1}", ErrorCode.INVALID_REQUEST, "[max, lease, wait]");

        assertThat(read(Ack.class, "{\"claim\":\"c\"}")).isEqualTo(new Ack("c"));
        assertRefused(Ack.class, "{}", ErrorCode.INVALID_REQUEST, "member \"claim\" is required");
        assertRefused(Ack.class, "{\"claim\":null}", ErrorCode.INVALID_REQUEST, "claim must be a JSON string");
        assertRefused(Ack.class, "{\"claim\":7}", ErrorCode.INVALID_REQUEST, "claim must be a JSON string");

        assertThat(read(Nack.class, "{\"claim\":\"c\"}")).isEqualTo(new Nack("c", null));
        assertThat(read(Nack.class, "{\"claim\":\"c\",\"retryAfter\":0}")).isEqualTo(new Nack("c", 0L));
        assertRefused(Nack.class, "{\"claim\":\"c\",\"retryAfter\":null}", ErrorCode.INVALID_REQUEST, "retryAfter");

        assertThat(read(Extend.class, "{\"claim\":\"c\",\"lease\":5000}")).isEqualTo(new Extend("c", 5000));
        assertRefused(Extend.class, "{\"claim\":\"c\"}", ErrorCode.INVALID_REQUEST, "member \"lease\" is required");
        assertRefused(Extend.class, "{\"lease\":5000}", ErrorCode.INVALID_REQUEST, "member \"claim\" is required");
    }

    /**
     * A body comes back byte for byte whatever its declared length says: exact, absent (chunked), longer than the
     * exact-read bound, or longer than what arrives (a client gone mid-body: what arrived, as before).
     */
    @Test
    void bodiesAreReadWhole_withOrWithoutADeclaredLength() throws IOException {
        for (int size : new int[] {0, 1, 61, StrictJsonConverter.EXACT_READ_MAX_BYTES,
            StrictJsonConverter.EXACT_READ_MAX_BYTES + 1, 3 * StrictJsonConverter.EXACT_READ_MAX_BYTES}) {
            byte[] bytes = new byte[size];
            new Random(size).nextBytes(bytes);
            for (long declared : new long[] {size, -1, size + 10}) {
                MockHttpInputMessage input = new MockHttpInputMessage(bytes);
                if (declared >= 0) {
                    input.getHeaders().setContentLength(declared);
                }
                assertThat(StrictJsonConverter.readBody(input)).as("%d bytes declared as %d", size, declared)
                        .isEqualTo(bytes);
            }
        }
    }

    private <T extends JsonRequest> T read(Class<T> type, String body) {
        try {
            return type.cast(json.read(type, new MockHttpInputMessage(body.getBytes(StandardCharsets.UTF_8))));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A binding failure inside an array names its place by index; that used to fail with a NullPointerException. */
    @Test
    void aWrongArrayItem_isRefusedNamingItsPlace() {
        assertRefused(JsonRequest.AckAll.class, "{\"acks\":[5]}", ErrorCode.INVALID_REQUEST, "/acks/0 must be");
        assertRefused(JsonRequest.AckAll.class, "{\"acks\":[{\"id\":\"a\",\"claim\":\"c\"},\"x\"]}",
                ErrorCode.INVALID_REQUEST, "/acks/1 must be");
    }

    private void assertRefused(Class<? extends JsonRequest> type, String body, ErrorCode code) {
        assertRefused(type, body, code, "");
    }

    private void assertRefused(Class<? extends JsonRequest> type, String body, ErrorCode code, String detailPart) {
        assertThatThrownBy(() -> read(type, body)).as(body)
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.code()).as(body).isEqualTo(code);
                    assertThat(e.getMessage()).contains(detailPart).doesNotContain("`", "jackson", "Exception");
                });
    }
}
