package io.timeservice.client;

import static io.timeservice.client.ClockClientTest.ids;
import static io.timeservice.client.Refusals.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.timeservice.testkit.TestClock;
import io.timeservice.testkit.TestClocks;
import io.timeservice.testkit.TimeServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The time machine against a real TimeService: absolute times, fork, snapshot save and load, scaled clocks. */
@ExtendWith(TimeServiceExtension.class)
class TimeMachineTest {

    private static Instant at(long millis) {
        return Instant.ofEpochMilli(millis);
    }

    @Test
    void at_onEditsAndBatches_isTheClockTime_aPastOneIsNow(@TestClock(start = 10_000) ClockClient clock) {
        clock.add("A", Duration.ofMinutes(5));

        assertEquals(at(42_000), clock.edit("A", TimerEdit.at(at(42_000)).andPriority(3)).fireTime());
        assertEquals(at(10_000), clock.edit("A", TimerEdit.at(at(1))).fireTime());
        List<BatchResult> results = clock.batch().addAt("B", at(20_000)).addAt("C", at(0), 1, "[1]").commit();
        assertEquals(at(20_000), results.get(0).timer().fireTime());
        assertEquals(at(10_000), results.get(1).timer().fireTime());
        assertThrows(IllegalArgumentException.class,
                () -> clock.edit("A", TimerEdit.at(at(50_000)).andDelay(Duration.ofSeconds(1))));
        assertEquals(List.of("C", "A", "B"), ids(clock.advanceTo(at(20_000))));    // A kept its priority 3
    }

    @Test
    void fork_copiesTimersAndSchedules_thenBothGoOnIndependently(ClockClient clock, TestClocks clocks) {
        clock.add("A", Duration.ofSeconds(30), 0, "{\"order\":42}");
        clock.add("B", Duration.ofSeconds(90));
        clock.schedules().put("tick", ScheduleSpec.every(Duration.ofMinutes(1)));
        clock.advance(Duration.ofSeconds(10));

        ClockClient fork = clocks.fork(clock);
        List<Timer> firedHere = clock.advance(Duration.ofSeconds(60));
        fork.cancel("B");
        clock.add("C", Duration.ofSeconds(1));

        assertEquals(List.of("A", "tick:60000"), ids(firedHere));
        assertEquals(at(10_000), fork.now());
        List<Timer> firedThere = fork.advance(Duration.ofSeconds(120));
        assertEquals(List.of("A", "tick:60000", "tick:120000"), ids(firedThere));
        assertEquals("{\"order\":42}", firedThere.get(0).payloadJson());
        assertEquals(List.of("C", "B", "tick:120000"), ids(clock.advance(Duration.ofSeconds(60))));
        assertEquals(2, fork.schedules().get("tick").orElseThrow().fired());
    }

    @Test
    void fork_ontoAnExistingName_orOfAMissingClock_isRefused(TimeServiceClient ts, ClockClient clock,
                                                               ClockClient other) {
        refused(409, "clock_conflict", () -> clock.fork(other.name()));
        ClockClient missing = ts.clock("nothing-" + UUID.randomUUID());
        refused(404, "clock_not_found", () -> missing.fork("copy-" + UUID.randomUUID()));
    }

    @Test
    void snapshot_loadedIntoANewClock_firesTheSameTimers_andSavesTheSameDocument(
            @TestClock(start = 1_806_184_800_000L, queued = true) ClockClient clock, TestClocks clocks) {
        clock.add("reminder", Duration.ofHours(1), 2, "{\"order\":42}");
        clock.add("timeout", Duration.ofMinutes(5));
        clock.schedules().put("nightly", ScheduleSpec.cron("30 2 * * *", ZoneId.of("Europe/Berlin")));
        clock.advance(Duration.ofMinutes(5));                         // timeout fires: a ready delivery

        ClockSnapshot saved = clock.snapshot();
        ClockClient loaded = clocks.load(saved);

        assertEquals(clock.name(), saved.clockName());
        assertEquals(withoutName(saved), withoutName(loaded.snapshot()));
        assertEquals(1, loaded.deliveries().ready());
        List<Timer> firedThere = loaded.advance(Duration.ofDays(2));
        List<Timer> firedHere = clock.advance(Duration.ofDays(2));
        assertEquals(ids(firedHere), ids(firedThere));
        assertEquals(firedHere.stream().map(Timer::fireTime).toList(),
                firedThere.stream().map(Timer::fireTime).toList());
        assertEquals(List.of("reminder", "nightly:1806197400000", "nightly:1806280200000"), ids(firedThere));
        assertEquals("{\"order\":42}", firedThere.get(0).payloadJson());
    }

    @Test
    void loadClock_refusesABadDocument_andAnExistingName(TimeServiceClient ts, ClockClient clock) {
        ClockSnapshot wrongFormat = ClockSnapshot.of("{\"format\": 2, \"clock\": {}}");
        ClockSnapshot badCron = ClockSnapshot.of("{\"format\": 1, \"clock\": {}, \"schedules\": [{\"id\": \"s\", "
                + "\"cron\": \"61 * * * *\", \"next\": null}]}");

        assertEquals("/format", refused(400, "invalid_snapshot",
                () -> ts.loadClock("load-" + UUID.randomUUID(), wrongFormat)).problem().member());
        assertEquals("/schedules/0/cron", refused(400, "invalid_snapshot",
                () -> ts.loadClock("load-" + UUID.randomUUID(), badCron)).problem().member());
        refused(409, "clock_conflict", () -> ts.loadClock(clock.name(), clock.snapshot()));
        assertThrows(IllegalArgumentException.class, () -> ClockSnapshot.of("[1]"));
        assertThrows(IllegalArgumentException.class, () -> ClockSnapshot.of("{not json"));
    }

    @Test
    void loadedFromAFixture_byTheTestClockAnnotation(@TestClock(snapshot = "order.json") ClockClient clock) {
        assertEquals(at(900_000), clock.now());
        assertTrue(clock.info().queued());
        assertEquals(List.of("reminder"), ids(clock.advance(Duration.ofHours(1))));
    }

    @Test
    void scaledClock_frozenAtItsStart_runsOnAfterARateChange_andFiresByItself(TestClocks clocks) {
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        ClockClient clock = clocks.create(ClockOptions.scaled(0, start));
        ClockInfo frozen = clock.info();
        assertTrue(frozen.scaled());
        assertEquals(0.0, frozen.rate());
        assertEquals(start, frozen.now());
        clock.add("hour", Duration.ofHours(1));
        assertEquals(start, clock.now());
        refused(409, "clock_not_virtual", () -> clock.advance(Duration.ofHours(1)));

        ClockInfo running = clock.changeRate(100_000);

        assertEquals(100_000.0, running.rate());
        List<Delivery> claimed = clock.claim(1, Duration.ofMinutes(1), Duration.ofSeconds(30));
        assertEquals(List.of("hour"), claimed.stream().map(Delivery::id).toList());
        assertTrue(clock.now().isAfter(start.plus(Duration.ofHours(1))), clock.now()::toString);
        Instant stopped = clock.changeRate(0).now();
        assertEquals(stopped, clock.now());
        assertEquals(0.0, clock.info().rate());
    }

    @Test
    void changeRate_onAClockThatIsNotScaled_isRefused(ClockClient clock) {
        refused(409, "clock_not_scaled", () -> clock.changeRate(2));
        assertNull(clock.info().rate());
        assertFalse(clock.info().scaled());
    }

    /** The document without its clock's name, the one member a load does not keep. */
    private static JsonNode withoutName(ClockSnapshot snapshot) {
        JsonNode document = Json.parse(snapshot.json());
        ((ObjectNode) document.get("clock")).remove("name");
        return document;
    }
}
