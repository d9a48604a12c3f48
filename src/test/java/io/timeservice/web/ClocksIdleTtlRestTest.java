package io.timeservice.web;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@code timeservice.clocks.idle-ttl}: every answer about a virtual clock says when it will be deleted. The deletion
 * itself runs on a fake wall clock in {@code ClockRegistryIdleTtlTest}; here the sweep (once a minute) finds no clock
 * idle for an hour.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"timeservice.clocks.idle-ttl=1h", "timeservice.demo.enabled=true"})
class ClocksIdleTtlRestTest extends RestTestSupport {

    private static final long TTL_MILLIS = 3_600_000;

    @Test
    void putGetAndList_carryDeletesAt_anHourAfterTheLastCall_butNeverForDefault() {
        JsonPath created = json("{}").put("/clocks/ci-ttl").then().statusCode(201).extract().jsonPath();
        assertEquals(created.getLong("createdAt") + TTL_MILLIS, created.getLong("deletesAt"));

        long before = System.currentTimeMillis();
        given().get("/clocks/ci-ttl").then().statusCode(200)
                .body("deletesAt", greaterThanOrEqualTo(before + TTL_MILLIS));
        json("{}").put("/clocks/ci-ttl").then().statusCode(200)
                .body("deletesAt", greaterThanOrEqualTo(before + TTL_MILLIS));
        given().get("/clocks/default").then().statusCode(200).body("$", not(hasKey("deletesAt")));

        List<Map<String, Object>> listed = given().get("/clocks").jsonPath().getList("clocks");
        assertEquals(List.of("ci-ttl", "default"), listed.stream().map(clock -> clock.get("name")).toList());
        assertEquals(true, listed.get(0).containsKey("deletesAt"));
        assertEquals(false, listed.get(1).containsKey("deletesAt"));

        given().delete("/clocks/ci-ttl").then().statusCode(204);
        given().get("/clocks").then().body("clocks.name", equalTo(List.of("default")));
    }
}
