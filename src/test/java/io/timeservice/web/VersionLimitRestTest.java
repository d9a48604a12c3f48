package io.timeservice.web;

import static io.timeservice.web.RestTestSupport.assertProblem;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.timeservice.model.Timer;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.RecoveredSnapshot;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A timer at {@link Timer#MAX_VERSION} (the most edits the heap can count) refuses one more edit with 409
 * {@code version_limit_reached}, cleanly and as the contract documents, instead of wrapping its version. Reaching
 * the bound by 2^31 edits would take hours, so the service starts memory-only and its fresh scheduler is loaded,
 * as recovery would load it, with a timer one edit below the bound.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.durability=none", "timeservice.capacity=17"})
@DirtiesContext
class VersionLimitRestTest {

    @LocalServerPort
    int port;

    @Autowired
    MemoryClock scheduler;

    @Test
    void anEditAtTheMaximumVersion_isRefusedWith409_andChangesNothing() {
        scheduler.recover(new RecoveredSnapshot(0, 1, List.of(
                new Mutation.Added(new Timer("A", 5, 0, 1, Timer.MAX_VERSION - 1, 0, null), 0))), List.of());

        given().contentType(ContentType.JSON).body("{\"delay\":9}").patch("/timers/A").then()
                .statusCode(200)
                .header("ETag", "\"1-" + Timer.MAX_VERSION + "\"")
                .body("version", equalTo(Integer.MAX_VALUE));

        assertProblem(given().contentType(ContentType.JSON).body("{\"priority\":3}")
                .header("If-Match", "\"1-" + Timer.MAX_VERSION + "\"").patch("/timers/A"), 409,
                "version_limit_reached");
        given().get("/timers/A").then().statusCode(200)
                .header("ETag", "\"1-" + Timer.MAX_VERSION + "\"")
                .body("fireTime", equalTo(9))
                .body("priority", equalTo(0));
        given().header("If-Match", "\"1-" + Timer.MAX_VERSION + "\"").delete("/timers/A").then().statusCode(204);
    }

    private RequestSpecification given() {
        return RestAssured.given().spec(new RequestSpecBuilder().setPort(port).addFilter(new ContractFilter()).build());
    }
}
