package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;

import java.util.List;

/**
 * {@link ClocksRestTest} on the PostgreSQL store: every test of it must pass on both stores; where the PostgreSQL
 * store differs by design (docs/POSTGRES-STORE.md) the hook is overridden here to assert that difference.
 */
@PostgresRestStore
class ClocksRestPostgresTest extends ClocksRestTest {

    /**
     * Differs by design: the PostgreSQL store keeps no heap, so the heap view of clock c shows its size and no cells,
     * and the invariant report the checks this store keeps.
     */
    @Override
    void assertHeapViewsOfClockCHoldOnlyA() {
        given().get("/clocks/c/queue/invariants").then().statusCode(200).body("ok", equalTo(true))
                .body("checks.name", equalTo(List.of("no-overdue", "pending-count-matches-rows", "budget-matches-rows")));
        given().get("/clocks/c/queue/heap").then().statusCode(200).body("size", equalTo(1))
                .body("slots", equalTo(List.of()));
        assertProblem(given().get("/clocks/nobody/queue/heap"), 404, "clock_not_found");
    }
}
