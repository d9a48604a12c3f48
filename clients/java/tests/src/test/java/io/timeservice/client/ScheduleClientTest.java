package io.timeservice.client;

import static io.timeservice.client.ClockClientTest.ids;
import static io.timeservice.client.Refusals.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.timeservice.testkit.TestClock;
import io.timeservice.testkit.TimeServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every schedule call of the client against a real TimeService, on virtual clocks advanced through occurrences. */
@ExtendWith(TimeServiceExtension.class)
class ScheduleClientTest {

    /** 2027-03-27T22:00:00Z: the evening before Europe/Berlin springs forward (02:00 CET becomes 03:00 CEST). */
    private static final long BEFORE_SPRING_FORWARD = 1_806_184_800_000L;
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static Instant at(String time) {
        return Instant.parse(time);
    }

    @Test
    void cronInBerlin_firesAtTheLocalTimes_theMissingOneMovedByTheGap(
            @TestClock(start = BEFORE_SPRING_FORWARD) ClockClient clock) {
        Schedule nightly = clock.schedules().put("nightly", ScheduleSpec.cron("30 2 * * *", BERLIN));

        assertEquals(at("2027-03-28T01:30:00Z"), nightly.next());     // 02:30 does not exist that night: 03:30 CEST
        assertEquals(Schedule.State.ACTIVE, nightly.state());
        assertEquals(BERLIN, nightly.spec().zone());
        assertEquals(List.of(at("2027-03-28T01:30:00Z"), at("2027-03-29T00:30:00Z"), at("2027-03-30T00:30:00Z")),
                clock.schedules().next("nightly", 3));

        List<Timer> fired = clock.advanceTo(at("2027-03-29T12:00:00Z"));

        assertEquals(List.of(at("2027-03-28T01:30:00Z"), at("2027-03-29T00:30:00Z")),
                fired.stream().map(Timer::fireTime).toList());
        assertEquals(List.of("nightly:" + at("2027-03-28T01:30:00Z").toEpochMilli(),
                "nightly:" + at("2027-03-29T00:30:00Z").toEpochMilli()), ids(fired));
        assertTrue(fired.stream().allMatch(t -> "nightly".equals(t.schedule())));
        Schedule after = clock.schedules().get("nightly").orElseThrow();
        assertEquals(2, after.fired());
        assertEquals(at("2027-03-30T00:30:00Z"), after.next());
        assertEquals(Optional.of("nightly"), clock.next().map(Timer::schedule));
    }

    @Test
    void every_withLimit_firesThatMany_withItsPayloadAndPriority_thenIsDone(ClockClient clock) {
        Schedule tick = clock.schedules().put("tick", ScheduleSpec.every(Duration.ofMinutes(1)).withLimit(3)
                .withPriority(-2).withPayload("{\"job\": \"poll\"}"));
        assertEquals(Instant.ofEpochMilli(60_000), tick.spec().start());             // the implied start, filled in
        assertEquals(List.of(60_000L, 120_000L, 180_000L),
                clock.schedules().next("tick", 10).stream().map(Instant::toEpochMilli).toList());

        List<Timer> fired = clock.advance(Duration.ofHours(1));

        assertEquals(List.of("tick:60000", "tick:120000", "tick:180000"), ids(fired));
        assertTrue(fired.stream().allMatch(t -> t.priority() == -2 && "{\"job\":\"poll\"}".equals(t.payloadJson())));
        Schedule done = clock.schedules().get("tick").orElseThrow();
        assertEquals(Schedule.State.DONE, done.state());
        assertNull(done.next());
        assertEquals(3, done.fired());
        assertEquals(List.of(), clock.schedules().next("tick", 10));
    }

    @Test
    void anOccurrence_isReadByTheTimerCalls_butOnlyTheScheduleChangesIt(ClockClient clock) {
        clock.schedules().put("tick", ScheduleSpec.every(Duration.ofMinutes(1)));

        Timer occurrence = clock.get("tick:60000").orElseThrow();

        assertEquals("tick", occurrence.schedule());
        refused(409, "schedule_owned", () -> clock.cancel("tick:60000"));
        refused(409, "schedule_owned", () -> clock.edit("tick:60000", Duration.ZERO));
    }

    @Test
    void onAQueueingClock_anOccurrenceIsADeliveryNamingItsSchedule(@TestClock(queued = true) ClockClient clock) {
        clock.schedules().put("tick", ScheduleSpec.every(Duration.ofMinutes(1)).withPayload("7"));
        clock.add("plain", Duration.ofSeconds(90));
        clock.advance(Duration.ofMinutes(2));

        List<Delivery> claimed = clock.claim(10, Duration.ofSeconds(30), Duration.ZERO);

        assertEquals(List.of("tick:60000", "plain", "tick:120000"), claimed.stream().map(Delivery::id).toList());
        assertEquals(Arrays.asList("tick", null, "tick"), claimed.stream().map(Delivery::schedule).toList());
        assertEquals("7", claimed.get(0).payloadJson());
        clock.ackAll(claimed);
    }

    @Test
    void pause_skipsAndCounts_resume_continuesAfterNow_ifMatchGuardsBoth(ClockClient clock) {
        Schedule created = clock.schedules().put("tick", ScheduleSpec.every(Duration.ofMinutes(1)));
        Schedule paused = clock.schedules().pause("tick", created.etag());
        assertEquals(Schedule.State.PAUSED, paused.state());
        assertTrue(paused.spec().paused());
        assertEquals(2, paused.version());

        assertEquals(List.of(), clock.advance(Duration.ofSeconds(150)));
        refused(412, "precondition_failed", () -> clock.schedules().resume("tick", created.etag()));
        Schedule resumed = clock.schedules().resume("tick", paused.etag());

        assertEquals(Schedule.State.ACTIVE, resumed.state());
        assertEquals(Instant.ofEpochMilli(180_000), resumed.next());
        assertEquals(2, resumed.skipped());
        assertEquals(List.of("tick:180000"), ids(clock.advance(Duration.ofSeconds(30))));
    }

    @Test
    void trigger_firesAnExtraOccurrenceAtNow_thePendingOneStays(ClockClient clock) {
        clock.schedules().put("report", ScheduleSpec.cron("0 9 * * MON-FRI").withLimit(1));
        clock.advance(Duration.ofSeconds(5));

        Timer extra = clock.schedules().trigger("report");

        assertEquals("report:5000", extra.id());
        assertEquals(Instant.ofEpochMilli(5_000), extra.fireTime());
        assertEquals(List.of("report:5000"), ids(clock.advance(Duration.ZERO)));
        Schedule report = clock.schedules().get("report").orElseThrow();
        assertEquals(1, report.fired());
        assertEquals(1, report.triggered());
        assertEquals(Instant.parse("1970-01-01T09:00:00Z"), report.next());    // 1970-01-01 was a Thursday
    }

    @Test
    void replace_keepsTheCounts_listAndDelete(ClockClient clock) {
        clock.schedules().put("b", ScheduleSpec.every(Duration.ofMinutes(1)));
        Schedule a = clock.schedules().put("a", ScheduleSpec.every(Duration.ofSeconds(10)));
        clock.advance(Duration.ofSeconds(25));

        Schedule replaced = clock.schedules().put("a", a.spec().withLimit(5), a.etag());
        refused(412, "precondition_failed", () -> clock.schedules().put("a", a.spec(), a.etag()));

        assertEquals(2, replaced.fired());
        assertEquals(2, replaced.version());
        assertEquals(Instant.ofEpochMilli(30_000), replaced.next());
        assertEquals(List.of("a", "b"), clock.schedules().list().stream().map(Schedule::id).toList());
        clock.schedules().delete("a", replaced.etag());
        clock.schedules().delete("b");
        assertEquals(Optional.empty(), clock.schedules().get("a"));
        assertEquals(List.of(), clock.schedules().list());
        assertEquals(0, clock.info().size());                                  // their occurrences went with them
    }

    @Test
    void scheduleRefusals_eachWithItsCode(ClockClient clock) {
        refused(400, "invalid_schedule", () -> clock.schedules().put("s", ScheduleSpec.cron("61 * * * *")));
        refused(400, "invalid_schedule", () -> clock.schedules().put("s", ScheduleSpec.cron("0 0 30 2 *")));
        refused(400, "invalid_schedule", () -> clock.schedules().put("s", ScheduleSpec.every(Duration.ofMillis(999))));
        refused(400, "invalid_schedule", () -> clock.schedules().put("s", ScheduleSpec.every(Duration.ofMinutes(1))
                .withStart(Instant.ofEpochMilli(10_000)).withEnd(Instant.ofEpochMilli(5_000))));
        refused(400, "invalid_id", () -> clock.schedules().put("x".repeat(101), ScheduleSpec.cron("@daily")));
        refused(404, "schedule_not_found", () -> clock.schedules().pause("nothing"));
        refused(404, "schedule_not_found", () -> clock.schedules().trigger("nothing"));
        refused(404, "schedule_not_found", () -> clock.schedules().delete("nothing"));
        clock.schedules().put("s", ScheduleSpec.cron("@daily"));
        refused(400, "invalid_limit", () -> clock.schedules().next("s", 0));
        assertEquals(List.of("s"), clock.schedules().list().stream().map(Schedule::id).toList());
    }
}
