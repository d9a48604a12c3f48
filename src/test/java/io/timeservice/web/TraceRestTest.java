package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/**
 * {@code ?trace=true}: the recorded steps, replayed on the heap slots read before the request, give the heap slots
 * read after it. The replay is strict: a step must find its id where it says, and a move or place must fill a hole.
 */
class TraceRestTest extends RestTestSupport {

    private final Set<String> opsSeen = new TreeSet<>();

    @Test
    void traces_ofAddEditCancelAndAdvance_replayToTheNewHeap() {
        Random random = new Random(20_240_601);
        for (int i = 0; i < 40; i++) {
            String body = "{\"id\":\"t" + i + "\",\"delay\":" + (10 + random.nextInt(200)) + ",\"priority\":"
                    + random.nextInt(4) + "}";
            traced("add t" + i, () -> json(body).queryParam("trace", true).post("/timers"));
        }
        // an add that sifts to the root, and one that stays in the last slot
        traced("add root", () -> json("{\"id\":\"root\",\"delay\":1}").queryParam("trace", true)
                .post("/timers"));
        traced("add last", () -> json("{\"id\":\"last\",\"delay\":100000}").queryParam("trace", true)
                .post("/timers"));
        // edits that move up, move down and do not move
        traced("edit up", () -> json("{\"delay\":0}").queryParam("trace", true).patch("/timers/t30"));
        traced("edit down", () -> json("{\"delay\":5000}").queryParam("trace", true).patch("/timers/root"));
        traced("edit priority", () -> json("{\"priority\":-1}").queryParam("trace", true).patch("/timers/t7"));
        String unchanged = given().get("/timers/t8").jsonPath().getString("priority");
        traced("edit same key", () -> json("{\"priority\":" + unchanged + "}").queryParam("trace", true)
                .patch("/timers/t8"));
        // cancels: the root, the last slot and slots in between
        for (int k = 0; k < 8; k++) {
            List<String> slots = heapSlots();
            String victim = slots.get(k == 0 ? 0 : k == 1 ? slots.size() - 1 : random.nextInt(slots.size()));
            traced("cancel " + victim, () -> given().queryParam("trace", true).delete("/timers/" + victim));
        }
        // advances that fire nothing, one timer and several
        traced("advance 0", () -> json("{\"by\":0}").queryParam("trace", true).post("/clock/advance"));
        traced("advance 60", () -> json("{\"by\":60}").queryParam("trace", true).post("/clock/advance"));
        traced("advance 1000", () -> json("{\"by\":1000}").queryParam("trace", true).post("/clock/advance"));

        assertEquals(Set.of("compare", "lift", "move", "place", "remove"), opsSeen,
                "the scenario exercises every kind of step");
        given().get("/queue/invariants").then().statusCode(200).body("ok", equalTo(true));
    }

    @Test
    void withoutTraceParameter_noTraceIsSent() {
        add("A", 5).then().body("$", not(hasKey("trace")));
        json("{\"delay\":1}").queryParam("trace", false).patch("/timers/A").then().body("$", not(hasKey("trace")));
        advance(0).then().body("$", not(hasKey("trace")));
        json("{\"by\":0}").queryParam("trace", "false").post("/clock/advance").then()
                .body("$", not(hasKey("trace")));
    }

    @Test
    void traceOfAnAdvanceThatFiresNothing_isEmpty() {
        add("A", 5);

        json("{\"by\":1}").queryParam("trace", true).post("/clock/advance").then()
                .statusCode(200)
                .body("trace", equalTo(List.of()));
    }

    private void traced(String what, Supplier<Response> request) {
        List<String> before = heapSlots();
        Response response = request.get();
        assertTrue(response.statusCode() / 100 == 2, what + ": " + response.asString());
        List<Map<String, Object>> trace = response.jsonPath().getList("trace");
        List<String> after = heapSlots();

        assertEquals(after, replay(before, trace, what), what + ": trace " + trace);
    }

    /** Applies the steps to a copy of {@code before}, checking each one against the cells as they are. */
    private List<String> replay(List<String> before, List<Map<String, Object>> trace, String what) {
        List<String> cells = new ArrayList<>(before);
        for (Map<String, Object> step : trace) {
            String op = (String) step.get("op");
            String id = (String) step.get("id");
            opsSeen.add(op);
            String context = what + ", step " + step + ", cells " + cells;
            switch (op) {
                case "remove", "lift" -> {
                    int from = (Integer) step.get("from");
                    assertEquals(id, cells.get(from), context);
                    cells.set(from, null);
                }
                case "compare" -> {
                    int hole = (Integer) step.get("from");
                    int other = (Integer) step.get("to");
                    assertNull(cellOrNull(cells, hole), context + ": the sifting timer's slot is a hole");
                    assertEquals(step.get("otherId"), cells.get(other), context);
                }
                case "move" -> {
                    int from = (Integer) step.get("from");
                    int to = (Integer) step.get("to");
                    assertEquals(id, cells.get(from), context);
                    assertNull(cellOrNull(cells, to), context + ": a move fills a hole");
                    cells.set(from, null);
                    set(cells, to, id);
                }
                case "place" -> {
                    int to = (Integer) step.get("to");
                    assertNull(cellOrNull(cells, to), context + ": a place fills a hole");
                    set(cells, to, id);
                }
                default -> throw new AssertionError(context + ": unknown op");
            }
        }
        while (!cells.isEmpty() && cells.get(cells.size() - 1) == null) {
            cells.remove(cells.size() - 1);
        }
        assertTrue(!cells.contains(null), what + ": the replay leaves no hole inside the array: " + cells);
        return cells;
    }

    private static String cellOrNull(List<String> cells, int slot) {
        return slot < cells.size() ? cells.get(slot) : null;
    }

    private static void set(List<String> cells, int slot, String id) {
        while (cells.size() <= slot) {
            cells.add(null);
        }
        cells.set(slot, id);
    }
}
