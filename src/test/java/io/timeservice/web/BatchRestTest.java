package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.hasKey;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code POST /batch} and {@code POST /clocks/{clock}/batch}: every operation kind, every refusal with the index of
 * the refused operation, strict binding inside a batch, and a refused batch changes nothing a client can observe
 * (the queue, the clock, versions, the sequence counter). The HTTP layer is the same on both stores; what the store
 * decides (each refusal at its operation, the order of a batch, the largest batch, a named clock) is a case of
 * {@code store.TimerStoreContract}, run on both.
 */
class BatchRestTest extends RestTestSupport {

    /** Entity tag of C, pending before every test. */
    private String tagOfC;

    @BeforeEach
    void someTimersPending() {
        add("A", 5);
        add("B", 3, 1);
        tagOfC = add("C", 8).header("ETag");
    }

    @Test
    void mixedBatch_appliesEveryOperationInOrder_andAnswersEachResultWithItsTag() {
        Response response = json("{\"ops\":["
                + "{\"op\":\"add\",\"id\":\"D\",\"delay\":4,\"priority\":2,\"payload\":{\"n\":[1,2]}},"
                + "{\"op\":\"edit\",\"id\":\"D\",\"delay\":20},"
                + "{\"op\":\"cancel\",\"id\":\"C\",\"ifMatch\":" + quoted(tagOfC) + "},"
                + "{\"op\":\"add\",\"id\":\"C\",\"delay\":1},"
                + "{\"op\":\"edit\",\"id\":\"A\",\"priority\":-3,\"ifMatch\":\"*\"}]}").post("/batch");
        response.then().statusCode(200).body("results", hasSize(5));
        var results = response.jsonPath();
        assertThat(results.getString("results[0].id")).isEqualTo("D");
        assertThat(results.getInt("results[0].version")).isEqualTo(1);
        assertThat(results.getList("results[0].payload.n", Integer.class)).containsExactly(1, 2);
        long sequenceOfD = results.getLong("results[0].sequence");
        assertThat(results.getString("results[0].etag")).isEqualTo("\"" + sequenceOfD + "-1\"");
        assertThat(results.getLong("results[1].fireTime")).isEqualTo(20);
        assertThat(results.getString("results[1].etag")).isEqualTo("\"" + sequenceOfD + "-2\"");
        assertThat(results.getMap("results[2]")).containsOnlyKeys("id", "etag");
        assertThat(results.getString("results[2].etag")).isEqualTo(tagOfC);
        assertThat(results.getLong("results[3].sequence")).isEqualTo(sequenceOfD + 1);
        assertThat(results.getInt("results[4].priority")).isEqualTo(-3);

        given().get("/timers/D").then().statusCode(200).body("fireTime", equalTo(20)).body("version", equalTo(2))
                .body("payload.n[1]", equalTo(2));
        given().get("/timers/C").then().statusCode(200).body("fireTime", equalTo(1));
        given().get("/timers/A").then().statusCode(200).body("priority", equalTo(-3));
    }

    @Test
    void batchOnAClock_changesOnlyThatClock() {
        json("{}").put("/clocks/batch-ci").then().statusCode(201);
        try {
            json("{\"ops\":[{\"op\":\"add\",\"id\":\"A\",\"delay\":1},{\"op\":\"add\",\"id\":\"X\",\"delay\":2}]}")
                    .post("/clocks/batch-ci/batch").then().statusCode(200).body("results.id", equalTo(
                            List.of("A", "X")));
            given().get("/clocks/batch-ci/timers").then().body("size", equalTo(2));
            given().get("/timers/X").then().statusCode(404);
            assertProblem(json("{\"ops\":[{\"op\":\"cancel\",\"id\":\"A\"}]}").post("/clocks/no-such-clock/batch"),
                    404, "clock_not_found");
        } finally {
            given().delete("/clocks/batch-ci").then().statusCode(204);
        }
    }

    static Stream<Arguments> refusedBatches() {
        return Stream.of(
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1},{\"op\":\"add\",\"id\":\"N\",\"delay\":2}]",
                        409, "duplicate_id", 1),
                Arguments.of("[{\"op\":\"cancel\",\"id\":\"A\"},{\"op\":\"add\",\"id\":\"B\",\"delay\":2}]",
                        409, "duplicate_id", 1),
                Arguments.of("[{\"op\":\"cancel\",\"id\":\"A\"},{\"op\":\"edit\",\"id\":\"A\",\"delay\":2}]",
                        404, "timer_not_found", 1),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1},{\"op\":\"cancel\",\"id\":\"zz\"}]",
                        404, "timer_not_found", 1),
                Arguments.of("[{\"op\":\"cancel\",\"id\":\"A\",\"ifMatch\":\"\\\"999-1\\\"\"}]",
                        412, "precondition_failed", 0),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1},{\"op\":\"edit\",\"id\":\"N\","
                        + "\"delay\":1,\"ifMatch\":\"W/\\\"1-1\\\"\"}]", 412, "precondition_failed", 1),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1},{\"op\":\"cancel\",\"id\":\"zz\","
                        + "\"ifMatch\":\"*\"}]", 412, "precondition_failed", 1),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1},{\"op\":\"add\",\"id\":\"M\",\"delay\":-1}]",
                        400, "invalid_delay", 1),
                Arguments.of("[{\"op\":\"edit\",\"id\":\"A\",\"delay\":1000000000000001}]", 400, "invalid_delay", 0),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1},{\"op\":\"edit\",\"id\":\"A\"}]",
                        400, "invalid_request", 1),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1},{\"op\":\"add\",\"id\":\"a b\",\"delay\":1}]",
                        400, "invalid_id", 1),
                // strict binding, as for single calls
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":\"5\"}]", 400, "invalid_delay", 0),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1},{\"op\":\"add\",\"id\":\"M\",\"delay\":2.5}]",
                        400, "invalid_delay", 1),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1e3}]", 400, "invalid_delay", 0),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1,\"priority\":null}]",
                        400, "invalid_priority", 0),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1,\"priority\":\"1\"}]",
                        400, "invalid_priority", 0),
                Arguments.of("[{\"op\":\"edit\",\"id\":\"A\",\"priority\":true}]", 400, "invalid_priority", 0),
                Arguments.of("[{\"op\":\"edit\",\"id\":\"A\",\"delay\":null}]", 400, "invalid_delay", 0),
                Arguments.of("[{\"op\":\"add\",\"id\":7,\"delay\":1}]", 400, "invalid_id", 0),
                Arguments.of("[{\"op\":\"cancel\",\"id\":\"A\",\"ifMatch\":5}]", 400, "invalid_request", 0),
                Arguments.of("[{\"op\":\"cancel\",\"id\":\"A\",\"ifMatch\":null}]", 400, "invalid_request", 0),
                Arguments.of("[{\"op\":\"add\",\"id\":\"N\",\"delay\":1,\"dealy\":1}]", 400, "invalid_request", 0),
                Arguments.of("[{\"op\":\"cancel\",\"id\":\"A\",\"delay\":1}]", 400, "invalid_request", 0),
                Arguments.of("[{\"op\":\"add\",\"delay\":1}]", 400, "invalid_request", 0),
                Arguments.of("[{\"op\":\"cancel\",\"id\":\"A\"},{\"op\":\"move\",\"id\":\"A\"}]",
                        400, "invalid_request", 1),
                Arguments.of("[{\"op\":\"ADD\",\"id\":\"N\",\"delay\":1}]", 400, "invalid_request", 0),
                Arguments.of("[{\"op\":1,\"id\":\"N\",\"delay\":1}]", 400, "invalid_request", 0),
                Arguments.of("[{\"id\":\"N\",\"delay\":1}]", 400, "invalid_request", 0),
                Arguments.of("[{\"op\":\"cancel\",\"id\":\"A\"},[\"cancel\",\"B\"]]", 400, "invalid_request", 1));
    }

    @ParameterizedTest(name = "{0} -> {1} {2} op {3}")
    @MethodSource("refusedBatches")
    void refusedBatch_answersTheFirstRefusedOperationsProblemWithItsIndex_andChangesNothing(
            String ops, int status, String code, int index) {
        String before = observableState();
        Response refused = json("{\"ops\":" + ops + "}").post("/batch");
        assertProblem(refused, status, code);
        refused.then().body("op", equalTo(index)).body("detail", org.hamcrest.Matchers.startsWith(
                "operation " + index + ": "));
        assertThat(observableState()).isEqualTo(before);
        long next = nextSequence();
        assertThat(add("after", 1).jsonPath().getLong("sequence")).isEqualTo(next + 1);
    }

    static Stream<Arguments> refusedBodies() {
        StringBuilder tooMany = new StringBuilder("{\"ops\":[");
        for (int i = 0; i <= 1000; i++) {
            tooMany.append(i == 0 ? "" : ",").append("{\"op\":\"cancel\",\"id\":\"A\"}");
        }
        return Stream.of(
                Arguments.of("{\"ops\":[]}"),
                Arguments.of(tooMany.append("]}").toString()),
                Arguments.of("{\"ops\":{\"op\":\"cancel\",\"id\":\"A\"}}"),
                Arguments.of("{\"ops\":null}"),
                Arguments.of("{}"),
                Arguments.of("{\"ops\":[{\"op\":\"cancel\",\"id\":\"A\"}],\"atomic\":true}"),
                Arguments.of("{\"ops\":[{\"op\":\"cancel\",\"id\":\"A\",\"id\":\"B\"}]}"),
                Arguments.of("[{\"op\":\"cancel\",\"id\":\"A\"}]"));
    }

    @ParameterizedTest
    @MethodSource("refusedBodies")
    void malformedBody_isInvalidRequestWithoutAnIndex_andChangesNothing(String body) {
        String before = observableState();
        Response refused = json(body).post("/batch");
        assertProblem(refused, 400, "invalid_request");
        refused.then().body("$", not(hasKey("op")));
        assertThat(observableState()).isEqualTo(before);
    }

    @Test
    void aThousandOperations_areOneBatch() {
        List<String> ops = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ops.add("{\"op\":\"add\",\"id\":\"t" + i + "\",\"delay\":" + i + "}");
        }
        json("{\"ops\":[" + String.join(",", ops) + "]}").post("/batch").then().statusCode(200)
                .body("results", hasSize(1000));
        given().get("/queue").then().body("size", equalTo(1003));
    }

    @Test
    void bodyOverTheLimit_is413_onBothPaths() {
        String padding = " ".repeat(70 * 1024);
        String body = "{\"ops\":[{\"op\":\"add\",\"id\":\"N\",\"delay\":1}]}" + padding;
        assertProblem(json(body).post("/batch"), 413, "payload_too_large");
        assertProblem(json(body).post("/clocks/default/batch"), 413, "payload_too_large");
        given().get("/timers/N").then().statusCode(404);
    }

    @Test
    void payloadOverTheLimit_is413_withTheIndexOfItsAdd() {
        String big = "\"" + "x".repeat(17 * 1024) + "\"";
        String before = observableState();
        Response refused = json("{\"ops\":[{\"op\":\"add\",\"id\":\"N\",\"delay\":1},{\"op\":\"add\",\"id\":\"M\","
                + "\"delay\":1,\"payload\":" + big + "}]}").post("/batch");
        assertProblem(refused, 413, "payload_too_large");
        refused.then().body("op", equalTo(1));
        assertThat(observableState()).isEqualTo(before);
    }

    private static String quoted(String tag) {
        return "\"" + tag.replace("\"", "\\\"") + "\"";
    }
}
