package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code PUT /clocks/{new} {"copyOf": ...}} over HTTP: a copy that then runs on its own, and the refusals. */
class ForkRestTest extends RestTestSupport {

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    @Test
    void aFork_copiesTimeSettingsAndTimers_andThenRunsApart() {
        json("{\"now\":100,\"delivery\":\"queue\"}").put("/clocks/scenario").then().statusCode(201);
        json("{\"id\":\"a\",\"delay\":10,\"payload\":{\"n\":1}}").post("/clocks/scenario/timers")
                .then().statusCode(201);
        json("{\"id\":\"b\",\"delay\":20}").post("/clocks/scenario/timers").then().statusCode(201);

        json("{\"copyOf\":\"scenario\"}").put("/clocks/variant").then().statusCode(201)
                .header("Location", "/clocks/variant").body("name", equalTo("variant")).body("now", equalTo(100))
                .body("size", equalTo(2)).body("delivery", equalTo("queue"));
        given().delete("/clocks/scenario/timers/b").then().statusCode(204);

        json("{\"next\":true}").post("/clocks/variant/advance").then().statusCode(200)
                .body("fired.id", equalTo(List.of("a"))).body("fired[0].payload.n", equalTo(1));
        json("{\"by\":100}").post("/clocks/variant/advance").then().body("fired.id", equalTo(List.of("b")));
        given().get("/clocks/scenario").then().body("now", equalTo(100)).body("size", equalTo(1));
    }

    @Test
    void aFork_isRefused_forAMissingSource_anExistingName_andWithOtherMembers() {
        json("{}").put("/clocks/there").then().statusCode(201);

        assertProblem(json("{\"copyOf\":\"nowhere\"}").put("/clocks/copy"), 404, "clock_not_found");
        assertProblem(json("{\"copyOf\":\"default\"}").put("/clocks/there"), 409, "clock_conflict");
        assertProblem(json("{\"copyOf\":\"default\",\"now\":5}").put("/clocks/copy"), 400, "invalid_request");
        assertProblem(json("{\"copyOf\":\"default\"}").put("/clocks/" + "x".repeat(65)), 400, "invalid_id");
        given().get("/clocks/copy").then().statusCode(404);
    }
}
