package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * SIGKILL of a service with recurring schedules, journal on. A virtual clock: the same steps (advances, a pause, a
 * trigger, a resume) go to this service and to a reference service that is never killed; the crashed one is killed
 * right after two acknowledged advances and restarted on its data directory, and after every step both answer the
 * same: the advance's fired occurrences, every schedule (counts, pending occurrence, state, version), their next
 * times and the pending occurrence timers. A system clock: a worker claims and acknowledges a schedule's occurrences
 * and the kill comes right after an acknowledgement; after the restart no acknowledged occurrence comes again and
 * none is missing (the ones due while the process was down are caught up).
 */
class ScheduleCrashIT {

    /** 2027-03-27T22:00Z: Berlin moves its clocks forward three hours later. */
    private static final long START = 1_806_184_800_000L;
    private static final long HOUR = 3_600_000;

    @TempDir
    Path dataDir;

    @TempDir
    Path liveDataDir;

    /** {method, path, body}; the kill comes right after the steps whose index is in {@link #KILL_AFTER}. */
    private static final List<String[]> STEPS = List.of(
            step("POST", "/clocks/c/advance", "{\"by\":" + HOUR + "}"),
            step("POST", "/clocks/c/advance", "{\"by\":" + (2 * HOUR + 900_000) + "}"),  // over the DST gap
            step("POST", "/clocks/c/schedules/hold/pause", null),
            step("POST", "/clocks/c/advance", "{\"by\":1800000}"),
            step("POST", "/clocks/c/schedules/tick/trigger", null),
            step("POST", "/clocks/c/advance", "{\"by\":" + (4 * HOUR) + "}"),
            step("POST", "/clocks/c/advance", "{\"by\":" + (25 * HOUR + 780_000) + "}"),
            step("POST", "/clocks/c/schedules/hold/resume", null),
            step("POST", "/clocks/c/advance", "{\"by\":" + (2 * HOUR) + "}"));
    private static final Set<Integer> KILL_AFTER = Set.of(5, 6);

    private static String[] step(String method, String path, String body) {
        return new String[] {method, path, body};
    }

    @Test
    void sigkillAfterAcknowledgedAdvances_leavesTheSchedulesExactlyAsAnUninterruptedRun() throws Exception {
        try (ServiceProcess reference = ServiceProcess.start("--timeservice.durability=none")) {
            ServiceProcess crashed = ServiceProcess.startWithJournal(dataDir);
            try {
                ServiceApi expected = new ServiceApi(reference.baseUrl());
                ServiceApi actual = new ServiceApi(crashed.baseUrl());
                for (ServiceApi api : List.of(expected, actual)) {
                    create(api);
                }
                assertSameState(expected, actual);
                for (int i = 0; i < STEPS.size(); i++) {
                    String[] step = STEPS.get(i);
                    JsonNode want = expected.expect(status(step), step[0], step[1], step[2]);
                    JsonNode got = actual.expect(status(step), step[0], step[1], step[2]);
                    if (step[1].endsWith("/advance")) {
                        assertThat(fired(got)).as("step %d fired", i).isEqualTo(fired(want));
                        assertThat(got.get("now").asLong()).isEqualTo(want.get("now").asLong());
                    }
                    if (KILL_AFTER.contains(i)) {
                        assertThat(crashed.kill()).isEqualTo(137);
                        crashed = ServiceProcess.startWithJournal(dataDir);
                        actual = new ServiceApi(crashed.baseUrl());
                    }
                    assertSameState(expected, actual);
                }
                JsonNode tick = actual.expect(200, "GET", "/clocks/c/schedules/tick", null);
                assertThat(tick.get("fired").asLong()).as("the steps made the schedules fire").isGreaterThan(30);
                assertThat(tick.get("triggered").asLong()).isEqualTo(1);
                assertThat(actual.expect(200, "GET", "/clocks/c/schedules/hold", null).get("skipped").asLong())
                        .isPositive();
            } finally {
                crashed.close();
            }
        }
    }

    @Test
    void sigkillAfterAnAcknowledgedOccurrence_neitherRepeatsNorLosesOne() throws Exception {
        long start;
        long every = 1_000;
        Set<Long> ackedBefore = new TreeSet<>();
        try (ServiceProcess service = ServiceProcess.startWithJournal(liveDataDir)) {
            ServiceApi api = new ServiceApi(service.baseUrl());
            api.createClock("live", "system", "queue");
            start = api.expect(201, "PUT", "/clocks/live/schedules/beat", "{\"every\":" + every + "}")
                    .get("start").asLong();
            await("three occurrences acknowledged").atMost(Duration.ofMinutes(2)).pollInSameThread().until(() -> {
                for (JsonNode delivery : api.claim("live", 1, 2_000, 5_000)) {
                    assertThat(api.ackAll("live", List.of(delivery))).containsExactly("acked");
                    ackedBefore.add(occurrence(delivery));
                }
                return ackedBefore.size() >= 3;
            });
            assertThat(ackedBefore).as("three occurrences acknowledged within two minutes").hasSize(3);
            assertThat(service.kill()).isEqualTo(137);
        }
        long last = ackedBefore.stream().mapToLong(Long::longValue).max().orElseThrow();
        long target = last + 3 * every; // three beyond the kill, whatever the downtime caught up meanwhile
        Map<Long, Integer> deliveredAfter = new HashMap<>();
        try (ServiceProcess service = ServiceProcess.startWithJournal(liveDataDir)) {
            ServiceApi api = new ServiceApi(service.baseUrl());
            await("three occurrences beyond the kill").atMost(Duration.ofMinutes(2)).pollInSameThread().until(() -> {
                List<JsonNode> claimed = api.claim("live", 100, 60_000, 5_000);
                for (JsonNode delivery : claimed) {
                    deliveredAfter.merge(occurrence(delivery), 1, Integer::sum);
                }
                if (!claimed.isEmpty()) {
                    assertThat(api.ackAll("live", claimed)).containsOnly("acked");
                }
                return deliveredAfter.containsKey(target);
            });
        }
        assertThat(deliveredAfter.keySet()).as("acknowledged occurrences delivered again")
                .doesNotContainAnyElementsOf(ackedBefore);
        assertThat(deliveredAfter.values()).containsOnly(1);
        assertThat(deliveredAfter).as("three occurrences beyond the kill within two minutes").containsKey(target);
        TreeSet<Long> seen = new TreeSet<>(ackedBefore);
        seen.addAll(deliveredAfter.keySet());
        List<Long> expectedTimes = new ArrayList<>(); // a claim may have taken some beyond the target
        for (long time = start; time <= seen.last(); time += every) {
            expectedTimes.add(time);
        }
        assertThat(seen).as("each occurrence from the first to the last delivered")
                .containsExactlyElementsOf(expectedTimes);
    }

    private static void create(ServiceApi api) throws IOException {
        api.expect(201, "PUT", "/clocks/c", "{\"mode\":\"virtual\",\"now\":" + START + "}");
        api.expect(201, "PUT", "/clocks/c/schedules/tick", "{\"every\":2700000,\"payload\":\"t\"}");
        api.expect(201, "PUT", "/clocks/c/schedules/night",
                "{\"cron\":\"30 2 * * *\",\"zone\":\"Europe/Berlin\",\"priority\":3}");
        api.expect(201, "PUT", "/clocks/c/schedules/hold", "{\"every\":600000,\"limit\":40,\"catchUp\":\"latest\"}");
    }

    private static int status(String[] step) {
        return step[1].endsWith("/trigger") ? 201 : 200;
    }

    /** The schedules, their next times and the pending timers: all that must survive the kill unchanged. */
    private static void assertSameState(ServiceApi expected, ServiceApi actual) throws IOException {
        assertThat(actual.expect(200, "GET", "/clocks/c/schedules", null))
                .isEqualTo(expected.expect(200, "GET", "/clocks/c/schedules", null));
        for (String id : List.of("tick", "night", "hold")) {
            String next = "/clocks/c/schedules/" + id + "/next?count=20";
            assertThat(actual.expect(200, "GET", next, null)).as(next)
                    .isEqualTo(expected.expect(200, "GET", next, null));
        }
        assertThat(pending(actual)).isEqualTo(pending(expected));
    }

    private static List<String> pending(ServiceApi api) throws IOException {
        List<String> timers = new ArrayList<>();
        api.expect(200, "GET", "/clocks/c/timers", null).get("timers")
                .forEach(t -> timers.add(t.get("id").asString() + "@" + t.get("fireTime").asLong()));
        return timers;
    }

    private static List<String> fired(JsonNode advance) {
        List<String> fired = new ArrayList<>();
        advance.get("fired").forEach(t -> fired.add(t.get("id").asString() + "@" + t.get("fireTime").asLong() + "/"
                + t.get("priority").asInt() + "/" + t.path("payload").asString("")));
        return fired;
    }

    /** The occurrence time of a delivery: its id is {@code <schedule>:<time>}. */
    private static long occurrence(JsonNode delivery) {
        String id = delivery.get("id").asString();
        return Long.parseLong(id.substring(id.lastIndexOf(':') + 1));
    }
}
