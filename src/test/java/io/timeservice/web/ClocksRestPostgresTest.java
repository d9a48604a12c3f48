package io.timeservice.web;

import java.util.List;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link ClocksRestTest} on the PostgreSQL store: every test of it must pass on both stores; where the PostgreSQL
 * store differs by design (docs/POSTGRES-STORE.md) the hook is overridden here to assert that difference.
 */
class ClocksRestPostgresTest extends ClocksRestTest {

    @DynamicPropertySource
    static void postgresStore(DynamicPropertyRegistry registry) {
        PostgresRestDatabase.register(registry);
    }

    /**
     * Differs by design: the heap views show the memory store's heaps, which hold no clock but {@code default} on
     * the PostgreSQL store, so a clock created there is {@code clock_not_found} for them.
     */
    @Override
    void assertHeapViewsOfClockCHoldOnlyA() {
        for (String heapView : List.of("/queue/invariants", "/queue/heap")) {
            assertProblem(given().get("/clocks/c" + heapView), 404, "clock_not_found");
        }
    }
}
