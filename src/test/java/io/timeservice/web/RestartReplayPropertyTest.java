package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.specification.RequestSpecification;
import io.timeservice.TimeServiceApplication;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue 41 item 14: seeded random histories of public calls ({@link RandomHistory}) on a memory store that journals
 * to a temporary data directory, then a stop and a start on the same directory: the service starts, and every
 * clock's snapshot document is as it was before the stop. Collisions of client timers with schedules' occurrence ids
 * (items 1 and 12) are among what the histories aim at. All seeds of a run share one service (each history on
 * clocks of its own), so one restart checks them all; a failure names the seed and its calls.
 */
class RestartReplayPropertyTest {

    @TempDir
    Path dataDir;

    private ConfigurableApplicationContext service;

    @AfterEach
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void randomHistories_thenAStopAndAStart_showEveryClockAsBefore() {
        RequestSpecification api = start();
        List<RandomHistory> histories = new ArrayList<>();
        HistorySeeds.seeds(3).forEach(seed -> histories.add(
                new RandomHistory(seed, () -> RestAssured.given().spec(api), RandomHistory.FAR_TIMES)
                        .run(HistorySeeds.steps())));
        Map<String, String> before = documents(api, histories);
        service.close();
        service = null;

        RequestSpecification restarted = start();

        Map<String, String> after = documents(restarted, histories);
        for (RandomHistory history : histories) {
            for (String clock : history.clocks()) {
                assertThat(after.get(clock)).as("clock %s after the restart; %s", clock, history.log())
                        .isEqualTo(before.get(clock));
            }
        }
    }

    private RequestSpecification start() {
        service = new SpringApplicationBuilder(TimeServiceApplication.class).run("--server.port=0",
                "--timeservice.store=memory", "--timeservice.durability=journal",
                "--timeservice.data-dir=" + dataDir);
        int port = ((WebServerApplicationContext) service).getWebServer().getPort();
        return new RequestSpecBuilder().setPort(port).build();
    }

    /** Each history's clocks' snapshot documents, or the status a clock answered instead. */
    private static Map<String, String> documents(RequestSpecification api, List<RandomHistory> histories) {
        Map<String, String> documents = new LinkedHashMap<>();
        for (RandomHistory history : histories) {
            for (String clock : history.clocks()) {
                var saved = RestAssured.given().spec(api).get("/clocks/" + clock + "/snapshot");
                documents.put(clock, saved.statusCode() == 200 ? saved.asString() : "status " + saved.statusCode());
            }
        }
        return documents;
    }
}
