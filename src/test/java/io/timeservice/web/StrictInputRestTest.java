package io.timeservice.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every body that the contract refuses is refused with its own code, and a refused request changes nothing a client
 * can observe: not the queue, not the clock, not a timer's version, and not the sequence counter.
 */
class StrictInputRestTest extends RestTestSupport {

    private static final String HUGE = "9".repeat(400);
    private static final String TOO_LONG_NUMBER = "1".repeat(1001);

    /** The sequence of the last accepted add. */
    private long lastSequence;

    @BeforeEach
    void someTimersPending() {
        add("A", 5);
        add("B", 3, 1);
        lastSequence = add("{\"id\":\"C\",\"delay\":8,\"payload\":[1,2]}").jsonPath().getLong("sequence");
        advance(1);
    }

    static Stream<Arguments> refusedAdds() {
        return Stream.of(
                // delay: no coercion, range 0..10^15
                Arguments.of("{\"id\":\"N\",\"delay\":\"5\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":2.5}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":5.0}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":1e3}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":1e400}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":true}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":null}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":{}}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":-1}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":1000000000000001}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":9223372036854775808}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":" + HUGE + "}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":-" + HUGE + "}", "invalid_delay"),
                // at: a long of epoch ms or an RFC 3339 date-time with an offset, at most 10^15 after now (1)
                Arguments.of("{\"id\":\"N\",\"at\":\"2027-03-28T03:30:00\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":\"2027-03-28T03:30+02:00\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":\"2027-03-28 03:30:00Z\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":\"2027-02-29T00:00:00Z\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":\"2027-03-28T24:00:00Z\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":\"2027-03-28T03:30:00+0200\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":\"+12027-03-28T03:30:00Z\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":\"2027-03-28T03:30:00Z[Europe/Berlin]\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":\"tomorrow\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":\"\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":\"1806197400000\"}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":1806197400000.5}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":1e3}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":9223372036854775808}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":-" + HUGE + "}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":1000000000000002}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":true}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":null}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"at\":{}}", "invalid_delay"),
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"at\":5}", "invalid_request"),
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"at\":\"2027-03-28T03:30:00Z\"}", "invalid_request"),
                Arguments.of("{\"id\":\"N\",\"at\":5,\"at\":6}", "invalid_request"),
                // priority: a JSON int32
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"priority\":\"1\"}", "invalid_priority"),
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"priority\":1.5}", "invalid_priority"),
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"priority\":2147483648}", "invalid_priority"),
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"priority\":-2147483649}", "invalid_priority"),
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"priority\":null}", "invalid_priority"),
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"priority\":false}", "invalid_priority"),
                // id: 1..128 of A-Z a-z 0-9 . _ - ~ :
                Arguments.of("{\"id\":\"\",\"delay\":1}", "invalid_id"),
                Arguments.of("{\"id\":\"a b\",\"delay\":1}", "invalid_id"),
                Arguments.of("{\"id\":\"caf\u00e9\",\"delay\":1}", "invalid_id"),
                Arguments.of("{\"id\":\"\u23f0\",\"delay\":1}", "invalid_id"),
                Arguments.of("{\"id\":\"a/b\",\"delay\":1}", "invalid_id"),
                Arguments.of("{\"id\":\".\",\"delay\":1}", "invalid_id"),
                Arguments.of("{\"id\":\"..\",\"delay\":1}", "invalid_id"),
                Arguments.of("{\"id\":\"" + "a".repeat(129) + "\",\"delay\":1}", "invalid_id"),
                Arguments.of("{\"id\":7,\"delay\":1}", "invalid_id"),
                Arguments.of("{\"id\":null,\"delay\":1}", "invalid_id"),
                // structure
                Arguments.of("{\"id\":\"N\",\"dealy\":1}", "invalid_request"),
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"dealy\":1}", "invalid_request"),
                Arguments.of("{\"delay\":1}", "invalid_request"),
                Arguments.of("{\"id\":\"N\"}", "invalid_request"),
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"delay\":2}", "invalid_request"),
                Arguments.of("{\"id\":\"N\",\"id\":\"M\",\"delay\":1}", "invalid_request"),
                Arguments.of("", "invalid_request"),
                Arguments.of("   ", "invalid_request"),
                Arguments.of("[{\"id\":\"N\",\"delay\":1}]", "invalid_request"),
                Arguments.of("\"N\"", "invalid_request"),
                Arguments.of("null", "invalid_request"),
                Arguments.of("42", "invalid_request"),
                Arguments.of("{\"id\":\"N\",\"delay\":1", "invalid_request"),
                Arguments.of("{\"id\":\"N\",\"delay\":1} {}", "invalid_request"),
                Arguments.of("{'id':'N','delay':1}", "invalid_request"),
                Arguments.of("{\"id\":\"N\",\"delay\":NaN}", "invalid_request"),
                Arguments.of("{\"id\":\"N\",\"delay\":" + TOO_LONG_NUMBER + "}", "invalid_request"),
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"payload\":" + "[".repeat(70) + "]".repeat(70) + "}",
                        "invalid_request"),
                // payload over 16 KiB as compact JSON
                Arguments.of("{\"id\":\"N\",\"delay\":1,\"payload\":\"" + "x".repeat(16_383) + "\"}",
                        "payload_too_large"),
                // a pending id
                Arguments.of("{\"id\":\"A\",\"delay\":1}", "duplicate_id"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("refusedAdds")
    void add_refused_changesNothing(String body, String code) {
        String before = observableState();

        Response refused = json(body).post("/timers");

        assertProblem(refused, statusOf(code), code);
        assertEquals(before, observableState());
        assertEquals(lastSequence + 1, nextSequence(), "a refused add must not use up a sequence");
    }

    static Stream<Arguments> refusedEdits() {
        return Stream.of(
                Arguments.of("{}", "invalid_request"),
                Arguments.of("{\"dealy\":1}", "invalid_request"),
                Arguments.of("{\"id\":\"A\"}", "invalid_request"),
                Arguments.of("{\"delay\":1,\"delay\":2}", "invalid_request"),
                Arguments.of("", "invalid_request"),
                Arguments.of("[]", "invalid_request"),
                Arguments.of("{\"delay\":\"5\"}", "invalid_delay"),
                Arguments.of("{\"delay\":2.5}", "invalid_delay"),
                Arguments.of("{\"delay\":null}", "invalid_delay"),
                Arguments.of("{\"delay\":-1}", "invalid_delay"),
                Arguments.of("{\"delay\":1000000000000001}", "invalid_delay"),
                Arguments.of("{\"delay\":" + HUGE + "}", "invalid_delay"),
                Arguments.of("{\"delay\":1,\"at\":1}", "invalid_request"),
                Arguments.of("{\"at\":\"2027-03-28T03:30:00\"}", "invalid_delay"),
                Arguments.of("{\"at\":1.5}", "invalid_delay"),
                Arguments.of("{\"at\":null}", "invalid_delay"),
                Arguments.of("{\"at\":1000000000000002}", "invalid_delay"),
                Arguments.of("{\"at\":\"2027-03-28T03:30:00+02:00\",\"priority\":\"1\"}", "invalid_priority"),
                Arguments.of("{\"delay\":1,\"priority\":true}", "invalid_priority"),
                Arguments.of("{\"priority\":2147483648}", "invalid_priority"),
                Arguments.of("{\"priority\":\"0\"}", "invalid_priority"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("refusedEdits")
    void edit_refused_changesNothing(String body, String code) {
        String before = observableState();

        assertProblem(json(body).patch("/timers/A"), 400, code);

        assertEquals(before, observableState());
    }

    static Stream<Arguments> refusedAdvances() {
        return Stream.of(
                Arguments.of("{\"by\":-1}", "invalid_advance"),
                Arguments.of("{\"by\":2.5}", "invalid_advance"),
                Arguments.of("{\"by\":\"5\"}", "invalid_advance"),
                Arguments.of("{\"by\":true}", "invalid_advance"),
                Arguments.of("{\"by\":null}", "invalid_advance"),
                Arguments.of("{\"by\":1e400}", "invalid_advance"),
                Arguments.of("{\"by\":1000000000000001}", "invalid_advance"),
                Arguments.of("{\"by\":" + HUGE + "}", "invalid_advance"),
                Arguments.of("{}", "invalid_request"),
                Arguments.of("{\"by\":1,\"fire\":true}", "invalid_request"),
                Arguments.of("{\"by\":1,\"by\":2}", "invalid_request"),
                Arguments.of("", "invalid_request"),
                Arguments.of("[5]", "invalid_request"),
                Arguments.of("{\"by\":", "invalid_request"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("refusedAdvances")
    void advance_refused_changesNothing(String body, String code) {
        String before = observableState();

        assertProblem(json(body).post("/clock/advance"), 400, code);

        assertEquals(before, observableState());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("unsupportedContentTypes")
    void bodyThatIsNotSentAsJson_isUnsupportedMediaType(String contentType) {
        String before = observableState();

        assertProblem(given().contentType(contentType).body("{\"id\":\"N\",\"delay\":1}").post("/timers"), 415,
                "unsupported_media_type");
        assertProblem(given().contentType(contentType).body("{\"delay\":1}").patch("/timers/A"), 415,
                "unsupported_media_type");
        assertProblem(given().contentType(contentType).body("{\"by\":1}").post("/clock/advance"), 415,
                "unsupported_media_type");

        assertEquals(before, observableState());
    }

    static Stream<String> unsupportedContentTypes() {
        return Stream.of("text/plain", "application/x-www-form-urlencoded", "application/xml",
                "application/merge-patch+json");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("jsonContentTypes")
    void jsonWithParameters_isAccepted(String contentType) {
        given().contentType(contentType).body("{\"id\":\"N\",\"delay\":1}").post("/timers").then().statusCode(201);
    }

    static Stream<String> jsonContentTypes() {
        return Stream.of(ContentType.JSON.toString(), "application/json", "application/json; charset=utf-8",
                "Application/JSON");
    }

    private static int statusOf(String code) {
        return switch (code) {
            case "payload_too_large" -> 413;
            case "duplicate_id" -> 409;
            default -> 400;
        };
    }
}
