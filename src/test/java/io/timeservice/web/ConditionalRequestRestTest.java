package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/**
 * Entity tags {@code "<sequence>-<version>"} and If-Match on PATCH and DELETE. The tags are read and written by the
 * web layer, the same on both stores; what the store decides of a precondition (one revision per timer of an id, over
 * a cancel, a firing and a reset; several named; on a missing timer) is a case of {@code store.TimerStoreContract}.
 */
class ConditionalRequestRestTest extends RestTestSupport {

    @Test
    void everyResponseWithOneTimer_carriesTheSameTag() {
        String tag = add("A", 5).header("ETag");

        assertEquals(tag, given().get("/timers/A").header("ETag"));
        assertEquals(tag, given().get("/queue/next").header("ETag"));
    }

    @Test
    void edit_withTheCurrentTag_succeeds_andGetsANewTag() {
        Response created = add("A", 5);
        String tag = created.header("ETag");
        long sequence = created.jsonPath().getLong("sequence");

        Response edited = json("{\"delay\":9}").header("If-Match", tag).patch("/timers/A");

        edited.then().statusCode(200).header("ETag", "\"" + sequence + "-2\"").body("version", equalTo(2));
        assertEquals(edited.header("ETag"), given().get("/timers/A").header("ETag"));
    }

    @Test
    void edit_withAStaleTag_isPreconditionFailed_andChangesNothing() {
        String first = add("A", 5).header("ETag");
        String second = json("{\"delay\":6}").header("If-Match", first).patch("/timers/A").header("ETag");
        assertNotEquals(first, second);
        String before = observableState();

        assertProblem(json("{\"delay\":1}").header("If-Match", first).patch("/timers/A"), 412,
                "precondition_failed");
        assertProblem(given().header("If-Match", first).delete("/timers/A"), 412, "precondition_failed");

        assertEquals(before, observableState());
    }

    @Test
    void cancel_withTheCurrentTag_succeeds() {
        String tag = add("A", 5).header("ETag");

        given().header("If-Match", tag).delete("/timers/A").then().statusCode(204);
        assertProblem(given().get("/timers/A"), 404, "timer_not_found");
    }

    @Test
    void star_matchesAnyRevision() {
        add("A", 5);
        json("{\"delay\":6}").patch("/timers/A").then().statusCode(200);

        json("{\"delay\":7}").header("If-Match", "*").patch("/timers/A").then()
                .statusCode(200)
                .body("version", equalTo(3));
        given().header("If-Match", "*").delete("/timers/A").then().statusCode(204);
    }

    @Test
    void aListOfTags_matchesWhenOneNamesTheCurrentRevision() {
        String tag = add("A", 5).header("ETag");

        json("{\"delay\":7}").header("If-Match", "\"999999-1\", " + tag + ", \"1-999\"").patch("/timers/A")
                .then().statusCode(200);
    }

    @Test
    void weakOrMalformedTags_neverMatch() {
        String tag = add("A", 5).header("ETag");

        assertProblem(json("{\"delay\":7}").header("If-Match", "W/" + tag).patch("/timers/A"), 412,
                "precondition_failed");
        assertProblem(json("{\"delay\":7}").header("If-Match", tag.replace("\"", "")).patch("/timers/A"), 412,
                "precondition_failed");
        assertProblem(given().header("If-Match", "\"99999999999999999999-1\"").delete("/timers/A"), 412,
                "precondition_failed");
        given().get("/timers/A").then().body("version", equalTo(1));
    }

    @Test
    void aTagOfACancelledTimer_neverMatchesTheIdsNextTimer() {
        String old = add("A", 5).header("ETag");
        given().delete("/timers/A").then().statusCode(204);
        String reused = add("A", 5).header("ETag");
        assertNotEquals(old, reused);

        assertProblem(json("{\"delay\":1}").header("If-Match", old).patch("/timers/A"), 412,
                "precondition_failed");
        assertProblem(given().header("If-Match", old).delete("/timers/A"), 412, "precondition_failed");
        given().get("/timers/A").then().statusCode(200).header("ETag", reused).body("fireTime", equalTo(5));
    }

    @Test
    void aTagOfAFiredTimer_neverMatchesTheIdsNextTimer() {
        String old = add("A", 1).header("ETag");
        advance(1);
        add("A", 5);

        assertProblem(given().header("If-Match", old).delete("/timers/A"), 412, "precondition_failed");
    }

    @Test
    void aTagFromBeforeADemoReset_neverMatches() {
        String old = add("A", 1).header("ETag");
        given().post("/demo/reset").then().statusCode(200);
        add("A", 1);

        assertProblem(given().header("If-Match", old).delete("/timers/A"), 412, "precondition_failed");
    }

    @Test
    void aTagForAnUnknownId_isNotFound() {
        assertProblem(given().header("If-Match", "\"1-1\"").delete("/timers/nope"), 404, "timer_not_found");
        assertProblem(json("{\"delay\":1}").header("If-Match", "\"1-1\"").patch("/timers/nope"), 404,
                "timer_not_found");
    }

    @Test
    void star_onAMissingTimer_isPreconditionFailed_asRfc9110Asks() {
        add("A", 1);
        advance(1);   // fired: no current representation
        String before = observableState();

        assertProblem(json("{\"delay\":1}").header("If-Match", "*").patch("/timers/A"), 412, "precondition_failed");
        assertProblem(given().header("If-Match", " * ").delete("/timers/nope"), 412, "precondition_failed");
        assertProblem(given().header("If-Match", "*").queryParam("trace", true).delete("/timers/nope"), 412,
                "precondition_failed");

        assertEquals(before, observableState());
        // without If-Match a missing timer stays 404
        assertProblem(given().delete("/timers/A"), 404, "timer_not_found");
    }

    @Test
    void tagsWithLeadingZeros_neverMatch_becauseTagsCompareAsStrings() {
        Response created = add("A", 5);
        long sequence = created.jsonPath().getLong("sequence");
        assertEquals("\"" + sequence + "-1\"", created.header("ETag"));

        for (String padded : new String[] {"\"0" + sequence + "-1\"", "\"" + sequence + "-01\"",
            "\"00" + sequence + "-001\"", "\"" + sequence + "-1\"".replace("-1", "-+1")}) {
            assertProblem(json("{\"delay\":7}").header("If-Match", padded).patch("/timers/A"), 412,
                    "precondition_failed");
            assertProblem(given().header("If-Match", padded).delete("/timers/A"), 412, "precondition_failed");
        }
        given().get("/timers/A").then().statusCode(200).body("version", equalTo(1));
        json("{\"delay\":7}").header("If-Match", "\"" + sequence + "-1\"").patch("/timers/A").then().statusCode(200);
    }
}
