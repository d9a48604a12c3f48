package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import io.restassured.path.json.JsonPath;
import io.timeservice.model.Precondition;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.CorruptionHooks;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;

/** GET /queue/heap: what the live heap view draws. */
class QueueHeapApiTest extends DemoServiceTestBase {

    @Autowired
    MemoryClock scheduler;

    @Test
    void heap_withoutLimit_showsTheFirst63SlotsAndCountsAll() {
        addDirectly(100);

        api().get("/queue/heap").then().statusCode(200)
                .body("size", equalTo(100))
                .body("slots", hasSize(63))
                .body("index.size()", equalTo(63))
                .body("slots[62].index", equalTo(62));
    }

    @Test
    void heap_atTheMaximumLimit_shows1023Slots() {
        addDirectly(1100);

        api().get("/queue/heap?limit=1023").then().statusCode(200)
                .body("size", equalTo(1100))
                .body("slots", hasSize(1023))
                .body("slots[1022].index", equalTo(1022));
    }

    @Test
    void heap_withALimitAboveTheQueue_showsEverySlot() {
        addDirectly(5);

        api().get("/queue/heap?limit=1").then().statusCode(200).body("slots", hasSize(1));
        api().get("/queue/heap?limit=1023").then().statusCode(200).body("slots", hasSize(5));
    }

    @ParameterizedTest(name = "limit=\"{0}\"")
    @ValueSource(strings = {"0", "1024", "-1", "abc", "1.5", "", "99999999"})
    void heap_withAnInvalidLimit_isRefusedWithAProblem(String limit) {
        api().get("/queue/heap?limit=" + limit).then().statusCode(400)
                .contentType(startsWith("application/problem+json"))
                .body("code", equalTo("invalid_limit"))
                .body("detail", containsString("limit must be an integer from 1 to 1023"));
    }

    @Test
    void heap_ofAnEmptyQueue_hasNoSlotsAndHoldsItsInvariants() {
        api().get("/queue/heap").then().statusCode(200)
                .body("size", equalTo(0))
                .body("now", equalTo(0))
                .body("slots", hasSize(0))
                .body("invariants.ok", equalTo(true));
    }

    @Test
    void heap_slots_areInHeapArrayOrder_notFiringOrder() {
        List<Long> delays = List.of(5L, 4L, 3L, 2L, 1L, 9L, 0L, 7L, 6L, 8L);
        for (int i = 0; i < delays.size(); i++) {
            api().body(Map.of("id", "t" + i, "delay", delays.get(i))).post("/timers").then().statusCode(201);
        }

        JsonPath heap = api().get("/queue/heap").then().statusCode(200).extract().jsonPath();
        int arity = heap.getInt("arity");
        List<String> expected = referenceHeapByInsertion(delays, arity);
        assertThat(heap.getList("slots.id", String.class)).as("slots of a %d-ary heap built by sift-up", arity)
                .isEqualTo(expected);
        assertThat(heap.getList("slots.index", Integer.class)).isEqualTo(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
        List<String> firingOrder = new ArrayList<>(expected);
        firingOrder.sort(Comparator.comparing(id -> delays.get(Integer.parseInt(id.substring(1)))));
        assertThat(expected).as("the example must tell array order from firing order").isNotEqualTo(firingOrder);
        for (int slot = 0; slot < expected.size(); slot++) {
            String id = expected.get(slot);
            assertThat(heap.getLong("slots[" + slot + "].fireTime"))
                    .isEqualTo(delays.get(Integer.parseInt(id.substring(1))));
        }
    }

    @Test
    void heap_index_mapsEveryShownIdToItsSlot() {
        addDirectly(40);
        scheduler.cancel("d7", Precondition.NONE, Trace.NONE);
        scheduler.edit("d30", 0L, null, Precondition.NONE, Trace.NONE);

        JsonPath heap = api().get("/queue/heap?limit=20").then().statusCode(200).extract().jsonPath();
        Map<String, Integer> index = heap.getMap("index", String.class, Integer.class);
        List<String> ids = heap.getList("slots.id", String.class);
        assertThat(index).hasSize(20);
        for (int slot = 0; slot < ids.size(); slot++) {
            assertThat(index).as("index entry of %s", ids.get(slot)).containsEntry(ids.get(slot), slot);
        }
        assertThat(ids.get(0)).as("the edited timer is due now, so it is the root").isEqualTo("d30");
    }

    @Test
    void heap_reportsTheFourNamedChecks() {
        addDirectly(10);

        api().get("/queue/heap").then().statusCode(200)
                .body("invariants.ok", equalTo(true))
                .body("invariants.checks.name",
                        equalTo(List.of("root-is-earliest", "index-matches-heap", "heap-order", "no-overdue")))
                .body("invariants.checks.ok", equalTo(List.of(true, true, true, true)));
    }

    /** The index entries come from the id index: cells swapped behind its back show up as a mismatch. */
    @Test
    void heap_index_isReadFromTheIdIndex_soABrokenIndexShows() {
        addDirectly(10);
        List<String> before = api().get("/queue/heap").then().extract().jsonPath().getList("slots.id", String.class);

        CorruptionHooks.swapCellsWithoutIndex(scheduler, 0, 1);

        JsonPath heap = api().get("/queue/heap").then().statusCode(200).extract().jsonPath();
        assertThat(heap.getList("slots.id", String.class).subList(0, 2)).containsExactly(before.get(1), before.get(0));
        Map<String, Integer> index = heap.getMap("index", String.class, Integer.class);
        assertThat(index).containsEntry(before.get(0), 0).containsEntry(before.get(1), 1);
        assertThat(heap.getBoolean("invariants.ok")).isFalse();
        assertThat(heap.getBoolean("invariants.current")).isTrue();
    }

    @Test
    void invariants_sayWhenTheyWereChecked_andThatTheyAreCurrent() {
        addDirectly(10);
        long before = System.currentTimeMillis();

        JsonPath report = api().get("/queue/invariants").then().statusCode(200).extract().jsonPath();

        assertThat(report.getBoolean("ok")).isTrue();
        assertThat(report.getBoolean("current")).isTrue();
        assertThat(report.getLong("checkedAt")).isBetween(before, System.currentTimeMillis());
        assertThat(api().get("/queue/invariants").then().extract().jsonPath().getLong("checkedAt"))
                .as("an unchanged queue is not walked again").isEqualTo(report.getLong("checkedAt"));
        assertThat(api().get("/queue/heap").then().extract().jsonPath().getLong("invariants.checkedAt"))
                .isEqualTo(report.getLong("checkedAt"));
    }

    /** Fills the queue without HTTP: the limits are about reading, and a thousand POSTs would only cost time. */
    private void addDirectly(int count) {
        for (int i = 0; i < count; i++) {
            scheduler.add("d" + i, 1000 - (i * 7919L) % 1000, i % 3, null, Trace.NONE);
        }
    }

    /** Inserts t0, t1, ... with the given fire times into a plain d-ary heap by sift-up, as the service must. */
    private static List<String> referenceHeapByInsertion(List<Long> fireTimes, int arity) {
        List<Integer> heap = new ArrayList<>();
        for (int timer = 0; timer < fireTimes.size(); timer++) {
            heap.add(timer);
            int slot = heap.size() - 1;
            while (slot > 0) {
                int parent = (slot - 1) / arity;
                // Sequences rise with insertion, so a tie on fireTime never moves the newer timer up.
                if (fireTimes.get(heap.get(slot)) >= fireTimes.get(heap.get(parent))) {
                    break;
                }
                java.util.Collections.swap(heap, slot, parent);
                slot = parent;
            }
        }
        return heap.stream().map(timer -> "t" + timer).toList();
    }
}
