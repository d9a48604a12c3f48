package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The seed scenarios of the issue, end to end over HTTP, and the payload's round trip. */
class ScenarioRestTest extends RestTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void equalDeadlines_fireInArrivalOrder() {
        add("A", 5);
        add("B", 5);
        add("C", 5);

        assertEquals(List.of(), firedIds(advance(4)));
        Response fired = advance(1);

        assertEquals(List.of("A", "B", "C"), firedIds(fired));
        fired.then().body("now", equalTo(5)).body("fired.fireTime", equalTo(List.of(5, 5, 5)));
        given().get("/queue").then().body("size", equalTo(0));
    }

    @Test
    void editAtFour_withDelayTwo_isDueAtSix() {
        long sequence = add("A", 5).jsonPath().getLong("sequence");
        advance(4);

        json("{\"delay\":2}").patch("/timers/A").then()
                .statusCode(200)
                .body("fireTime", equalTo(6))
                .body("sequence", equalTo((int) sequence));

        assertEquals(List.of(), firedIds(advance(1)), "the old deadline 5 no longer applies");
        assertEquals(List.of("A"), firedIds(advance(1)));
    }

    @Test
    void delayZero_firesOnAdvanceZero() {
        add("now", 0).then().body("fireTime", equalTo(0));
        add("later", 1);

        Response fired = advance(0);

        assertEquals(List.of("now"), firedIds(fired));
        fired.then().body("now", equalTo(0));
        given().get("/queue").then().body("size", equalTo(1)).body("nextFireTime", equalTo(1));
    }

    @Test
    void equalDeadlines_fireByPriority_thenArrival() {
        add("A", 10, 3);
        add("B", 10, 1);
        add("C", 10, 2);
        add("D", 10, 1);
        add("E", 10, 4);

        given().get("/timers").then().body("timers.id", equalTo(List.of("B", "D", "C", "A", "E")));
        assertEquals(List.of("B", "D", "C", "A", "E"), firedIds(advance(10)));
    }

    @Test
    void editingEToPriorityZero_makesItNext() {
        add("A", 10, 3);
        add("B", 10, 1);
        add("C", 10, 2);
        add("D", 10, 1);
        add("E", 10, 4);
        given().get("/queue/next").then().body("id", equalTo("B"));

        Response edited = json("{\"priority\":0}").patch("/timers/E");

        edited.then().statusCode(200).body("priority", equalTo(0)).body("fireTime", equalTo(10));
        given().get("/queue/next").then()
                .statusCode(200)
                .header("ETag", edited.header("ETag"))
                .body("id", equalTo("E"));
        assertEquals(List.of("E", "B", "D", "C", "A"), firedIds(advance(10)));
    }

    @Test
    void earlierDeadline_beatsPriority() {
        add("urgent", 5, 100);
        add("important", 6, -100);

        assertEquals(List.of("urgent", "important"), firedIds(advance(6)));
    }

    @Test
    void advance_firesOnlyWhatIsDue_andReportsFiredTimersAsTheyWere() {
        add("{\"id\":\"A\",\"delay\":3,\"priority\":2,\"payload\":{\"n\":1}}");
        add("B", 7);
        json("{\"priority\":1}").patch("/timers/A").then().statusCode(200);

        Response fired = advance(5);

        fired.then()
                .body("now", equalTo(5))
                .body("fired.id", equalTo(List.of("A")))
                .body("fired[0].version", equalTo(2))
                .body("fired[0].priority", equalTo(1))
                .body("fired[0].payload.n", equalTo(1))
                .body("$", not(hasKey("trace")));
        given().get("/timers").then().body("timers.id", equalTo(List.of("B")));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "{\"customer\":7,\"tags\":[\"a\",\"b\"],\"nested\":{\"ok\":true,\"none\":null}}",
        "[1,\"two\",3.5,false,null,{}]",
        "\"just text with \\\"quotes\\\" and unicode \u00e9\u23f0\"",
        "42",
        "-1.25e-3",
        "false",
        "{}",
        "[]",
        "\"\""})
    void payload_roundTripsAsSentJson(String payload) {
        JsonNode sent = JSON.readTree(payload);

        Response created = add("{\"id\":\"P\",\"delay\":4,\"payload\": " + payload + " }");

        assertEquals(sent, JSON.readTree(created.asString()).get("payload"));
        assertEquals(sent, JSON.readTree(given().get("/timers/P").asString()).get("payload"));
        assertEquals(sent, JSON.readTree(given().get("/timers").asString()).at("/timers/0/payload"));
        assertEquals(sent, JSON.readTree(advance(4).asString()).at("/fired/0/payload"));
    }

    @Test
    void payload_isStoredAsCompactJson_upToTheLimit() {
        String atLimit = "\"" + "x".repeat(16_382) + "\"";
        add("{\"id\":\"big\",\"delay\":1,\"payload\":   " + atLimit + "   }");

        String stored = given().get("/timers/big").asString();
        assertEquals(JSON.readTree(atLimit), JSON.readTree(stored).get("payload"));

        add("{\"id\":\"spaced\",\"delay\":1,\"payload\": { \"a\" : [ 1 , 2 ] } }");
        String text = given().get("/timers/spaced").asString();
        assertEquals(true, text.contains("\"payload\":{\"a\":[1,2]}"), text);
    }
}
