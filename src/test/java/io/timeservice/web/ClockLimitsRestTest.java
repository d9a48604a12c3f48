package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@code timeservice.clocks.max} and the one capacity that every clock shares. Both stores:
 * {@code store.ClockStoreContract}; the properties reaching the PostgreSQL store: {@code StoreSelectionTest}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.clocks.max=2", "timeservice.capacity=3", "timeservice.demo.enabled=true"})
class ClockLimitsRestTest extends RestTestSupport {

    @Test
    void theClockLimitCountsDefault_andTheCapacityCountsEveryClock() {
        json("{}").put("/clocks/one").then().statusCode(201);
        assertProblem(json("{}").put("/clocks/two"), 429, "clock_limit");

        add("a", 5);
        json("{\"id\":\"b\",\"delay\":5}").post("/clocks/one/timers").then().statusCode(201);
        json("{\"id\":\"c\",\"delay\":5}").post("/clocks/one/timers").then().statusCode(201);
        assertProblem(json("{\"id\":\"d\",\"delay\":5}").post("/timers"), 429, "capacity_exceeded");

        given().delete("/clocks/one").then().statusCode(204);   // gives its two timers back
        json("{}").put("/clocks/two").then().statusCode(201);
        add("d", 5);
        add("e", 5);
        given().get("/queue").then().body("size", equalTo(3));
        given().delete("/clocks/two").then().statusCode(204);
    }
}
