package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The database restarts in the middle of traffic: a PostgreSQL cluster of the test's own (never the shared server)
 * is stopped with a fast shutdown while four HTTP clients add timers, singly and in batches, to one instance of the
 * packaged jar, then started again. While it is down, calls answer 503 {@code storage_unavailable} (problem+json) and
 * readiness is DOWN; afterwards, without restarting the instance, readiness is UP, adds succeed again and the firing
 * loop still fires a system clock's timer. Nothing acknowledged is lost: every add answered 201 (every batch answered
 * 200) is there afterwards with the sequence it was answered with, and each add or batch answered 503 is wholly there
 * or wholly absent. No other answer is allowed.
 */
class DatabaseRestartIT {

    private static final String CLOCK = "restart";
    /** A system clock whose timers the instance's firing loop must still fire after the outage. */
    private static final String FIRING_CLOCK = "restart-fired";
    private static final int WRITERS = 4;
    private static final int BATCH = 4;
    /** Far beyond the clock's time: nothing fires, so every acknowledged add stays pending. */
    private static final long DELAY = 1_000_000_000L;
    /** Acknowledged adds before the stop, and again after the start. */
    private static final int ADDS_PER_PHASE = 300;
    private static final Duration PHASE_TIMEOUT = Duration.ofSeconds(60);

    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    /** The ids of each add or batch that answered 503: each group must be wholly there or wholly absent. */
    private final Queue<List<String>> unavailable = new ConcurrentLinkedQueue<>();
    private final Queue<String> unexpected = new ConcurrentLinkedQueue<>();

    @Test
    void databaseRestartUnderTraffic_answers503WhileDown_thenServesAgain_losingNothingAcknowledged() throws Exception {
        try (PrivatePostgres postgres = PrivatePostgres.start();
             ServiceProcess service = PostgresService.start(postgres.jdbcUrl())) {
            ServiceApi api = new ServiceApi(service.baseUrl());
            api.createClock(CLOCK, "virtual", "response");
            api.createClock(FIRING_CLOCK, "system", "queue");
            assertThat(readiness(api)).isEqualTo("UP");
            Workers writers = new Workers();
            for (int w = 0; w < WRITERS; w++) {
                ServiceApi client = new ServiceApi(service.baseUrl());
                String prefix = "w" + w + "-";
                AtomicInteger sent = new AtomicInteger();
                writers.start("writer-" + w, () -> {
                    int n = sent.getAndIncrement();
                    List<String> ids = new ArrayList<>();
                    for (int i = 0; i < (n % 3 == 0 ? BATCH : 1); i++) {
                        ids.add(prefix + n + "-" + i);
                    }
                    send(client, ids);
                    return true;
                });
            }

            writers.await(ADDS_PER_PHASE + " adds acknowledged before the stop",
                    () -> acknowledged.size() >= ADDS_PER_PHASE, PHASE_TIMEOUT);
            postgres.stopServer();
            Poll.until("readiness DOWN while the database is stopped", PHASE_TIMEOUT,
                    () -> readiness(api).equals("DOWN"));
            writers.await("an add answered 503 while the database is stopped", () -> !unavailable.isEmpty(),
                    PHASE_TIMEOUT);

            postgres.startServer();
            Poll.until("readiness UP after the database started again", PHASE_TIMEOUT,
                    () -> readiness(api).equals("UP"));
            int beforeRestart = acknowledged.size();
            writers.await(ADDS_PER_PHASE + " adds acknowledged after the start",
                    () -> acknowledged.size() >= beforeRestart + ADDS_PER_PHASE, PHASE_TIMEOUT);
            writers.stop();
            api.expect(201, "POST", "/clocks/" + FIRING_CLOCK + "/timers", "{\"id\":\"after-restart\",\"delay\":0}");
            assertThat(api.claim(FIRING_CLOCK, 1, 60_000, 20_000)).as("fired by the firing loop after the outage")
                    .hasSize(1);

            assertThat(unexpected).as("answers other than success and 503 storage_unavailable").isEmpty();
            for (Map.Entry<String, Long> add : acknowledged.entrySet()) {
                JsonNode timer = api.expect(200, "GET", "/clocks/" + CLOCK + "/timers/" + add.getKey(), null);
                assertThat(timer.get("sequence").asLong()).as(add.getKey()).isEqualTo(add.getValue());
            }
            for (List<String> group : unavailable) {
                Set<Integer> found = new HashSet<>();
                for (String id : group) {
                    found.add(api.send("GET", "/clocks/" + CLOCK + "/timers/" + id, null).statusCode());
                }
                assertThat(found).as("an add or batch answered 503 must be wholly there or wholly absent: "
                        + group).isIn(Set.of(200), Set.of(404));
            }
        }
    }

    /** One add, or a batch of adds; files the answer. */
    private void send(ServiceApi client, List<String> ids) throws Exception {
        boolean batch = ids.size() > 1;
        StringBuilder body = new StringBuilder(batch ? "{\"ops\":[" : "");
        for (int i = 0; i < ids.size(); i++) {
            body.append(i == 0 ? "" : ",").append('{').append(batch ? "\"op\":\"add\"," : "")
                    .append("\"id\":\"").append(ids.get(i)).append("\",\"delay\":").append(DELAY).append('}');
        }
        HttpResponse<String> response = client.send("POST", "/clocks/" + CLOCK + (batch ? "/batch" : "/timers"),
                body.append(batch ? "]}" : "").toString());
        int status = response.statusCode();
        if (status == (batch ? 200 : 201)) {
            JsonNode answer = ServiceApi.JSON.readTree(response.body());
            List<JsonNode> timers = new ArrayList<>();
            if (batch) {
                answer.get("results").forEach(timers::add);
            } else {
                timers.add(answer);
            }
            for (JsonNode timer : timers) {
                acknowledged.put(timer.get("id").asString(), timer.get("sequence").asLong());
            }
        } else if (status == 503 && isStorageUnavailable(response)) {
            unavailable.add(ids);
        } else {
            unexpected.add(ids + " answered " + status + " " + response.body());
        }
    }

    private static boolean isStorageUnavailable(HttpResponse<String> response) {
        return response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")
                && response.headers().firstValue("Retry-After").orElse("").equals("1")
                && ServiceApi.JSON.readTree(response.body()).path("code").asString("").equals("storage_unavailable");
    }

    /** The readiness probe's status; DOWN must come with 503 and the store component DOWN, UP with 200. */
    private static String readiness(ServiceApi api) throws Exception {
        HttpResponse<String> response = api.send("GET", "/actuator/health/readiness", null);
        JsonNode health = ServiceApi.JSON.readTree(response.body());
        String status = health.path("status").asString("");
        if (status.equals("DOWN")) {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
            assertThat(health.path("components").path("store").path("status").asString("")).as(response.body())
                    .isEqualTo("DOWN");
        } else {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        }
        return status;
    }
}
