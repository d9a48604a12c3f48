package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.util.List;

import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The calls the operator console added to the API (issue 45), over HTTP, every answer checked against openapi.yaml:
 * the timers listing's cursor and id prefix, dead letters by time of death, a clock's recent push attempts. The
 * stores' part: {@code store.TimerPageContract}, {@code store.DeliveryStoreContract}.
 */
class ConsoleApiRestTest extends RestTestSupport {

    @AfterEach
    void deleteCreatedClocks() {
        deleteClocksButDefault();
    }

    @Test
    void theTimersListing_pagesOnByItsNext_andFindsByIdPrefix() {
        json("{}").put("/clocks/paged").then().statusCode(201);
        json("{\"ops\":[{\"op\":\"add\",\"id\":\"a1\",\"delay\":50},{\"op\":\"add\",\"id\":\"b1\",\"delay\":40},"
                + "{\"op\":\"add\",\"id\":\"a2\",\"delay\":30,\"priority\":-1},{\"op\":\"add\",\"id\":\"b2\","
                + "\"delay\":30},{\"op\":\"add\",\"id\":\"a3\",\"delay\":10}]}").post("/clocks/paged/batch")
                .then().statusCode(200);

        JsonPath first = given().get("/clocks/paged/timers?limit=2").then().statusCode(200)
                .body("size", equalTo(5)).extract().jsonPath();
        assertThat(first.getList("timers.id", String.class)).containsExactly("a3", "a2");
        String next = first.getString("next");
        assertThat(next).matches("30,-1,\\d+");
        JsonPath second = given().queryParam("after", next).queryParam("limit", 2).get("/clocks/paged/timers")
                .then().statusCode(200).extract().jsonPath();
        assertThat(second.getList("timers.id", String.class)).containsExactly("b2", "b1");
        given().queryParam("after", second.getString("next")).queryParam("limit", 2).get("/clocks/paged/timers")
                .then().statusCode(200).body("timers.id", equalTo(List.of("a1"))).body("next", nullValue());
        given().get("/clocks/paged/timers?idPrefix=b&limit=1").then().statusCode(200)
                .body("timers.id", equalTo(List.of("b2"))).body("next", equalTo(
                        given().get("/clocks/paged/timers/b2").jsonPath().getLong("fireTime") + ",0,"
                                + given().get("/clocks/paged/timers/b2").jsonPath().getLong("sequence")));

        assertProblem(given().get("/clocks/paged/timers?after=30,x,1"), 400, "invalid_request");
        assertProblem(given().get("/clocks/paged/timers?dueBy=40&idPrefix=a"), 400, "invalid_request");
        assertProblem(given().get("/clocks/paged/timers?idPrefix=" + "x".repeat(129)), 400, "invalid_request");
    }

    @Test
    void deadLetters_areFilteredAndRedrivenByTheTimeTheyDied() {
        json("{\"format\":1,\"clock\":{\"delivery\":\"queue\",\"now\":2000},\"deliveries\":["
                + "{\"id\":\"old\",\"fireTime\":0,\"sequence\":1,\"state\":\"dead\",\"readyAt\":100,"
                + "\"deadReason\":\"nacked on attempt 1 of 1\"},"
                + "{\"id\":\"new\",\"fireTime\":0,\"sequence\":2,\"state\":\"dead\",\"readyAt\":900,"
                + "\"deadReason\":\"nacked on attempt 1 of 1\"}]}").put("/clocks/dying/snapshot")
                .then().statusCode(201);

        given().get("/clocks/dying/deliveries/dead?deadSince=500").then().statusCode(200)
                .body("deliveries.id", equalTo(List.of("new"))).body("deliveries[0].readyAt", equalTo(900));
        given().get("/clocks/dying/deliveries/count?state=dead&deadSince=100").then().statusCode(200)
                .body("count", equalTo(2));
        json("{\"deadSince\":500}").post("/clocks/dying/deliveries/dead/redrive").then().statusCode(200)
                .body("matched", equalTo(1)).body("changed", equalTo(1));
        given().get("/clocks/dying/deliveries/list?state=dead").then().body("deliveries.id", equalTo(List.of("old")));

        assertProblem(given().get("/clocks/dying/deliveries/list?state=ready&deadSince=5"), 400, "invalid_request");
        assertProblem(given().get("/clocks/dying/deliveries/dead?deadSince=soon"), 400, "invalid_request");
    }

    @Test
    void recentPushes_ofAClockThatPushedNothing_areNone_andOfNoClock404() {
        json("{\"delivery\":\"queue\"}").put("/clocks/quiet").then().statusCode(201);
        given().get("/clocks/quiet/push/recent").then().statusCode(200).body("kept", equalTo(20))
                .body("attempts", equalTo(List.of()));
        assertProblem(given().get("/clocks/nowhere/push/recent"), 404, "clock_not_found");
    }
}
