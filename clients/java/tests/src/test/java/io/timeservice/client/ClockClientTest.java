package io.timeservice.client;

import static io.timeservice.client.Refusals.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

import io.timeservice.testkit.TestClocks;
import io.timeservice.testkit.TimeServiceExtension;
import io.timeservice.testkit.TestClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every timer and clock call of the client against a real TimeService, and the refusals each one can meet. */
@ExtendWith(TimeServiceExtension.class)
class ClockClientTest {

    private static Instant at(long millis) {
        return Instant.ofEpochMilli(millis);
    }

    @Test
    void add_answersTheTimer_getReadsItBack(ClockClient clock) {
        Timer added = clock.add("invoice-42", Duration.ofDays(14), -3, "{\"customer\": 7, \"tags\": [\"a\"]}");

        assertEquals("invoice-42", added.id());
        assertEquals(at(Duration.ofDays(14).toMillis()), added.fireTime());
        assertEquals(-3, added.priority());
        assertEquals(1, added.version());
        assertEquals(at(0), added.createdAt());
        assertEquals("{\"customer\":7,\"tags\":[\"a\"]}", added.payloadJson());
        assertEquals("\"" + added.sequence() + "-1\"", added.etag());
        assertEquals(Optional.of(added), clock.get("invoice-42"));
    }

    @Test
    void get_missingTimer_isEmpty(ClockClient clock) {
        assertEquals(Optional.empty(), clock.get("nothing"));
    }

    @Test
    void add_withoutPayload_hasNone(ClockClient clock) {
        assertNull(clock.add("A", Duration.ZERO).payloadJson());
    }

    @Test
    void addAt_isDueAtThatTime_aPastTimeIsDueNow(ClockClient clock) {
        clock.advance(Duration.ofSeconds(10));

        assertEquals(at(25_000), clock.addAt("later", at(25_000)).fireTime());
        assertEquals(at(10_000), clock.addAt("past", at(1), 5, "\"x\"").fireTime());
    }

    @Test
    void edit_newDelayCountsFromNow_priorityAndVersionFollow(ClockClient clock) {
        clock.add("A", Duration.ofDays(14));
        clock.advance(Duration.ofDays(1));

        Timer edited = clock.edit("A", Duration.ofDays(7));
        Timer reprioritised = clock.edit("A", TimerEdit.priority(4));
        Timer both = clock.edit("A", TimerEdit.delay(Duration.ofHours(1)).andPriority(-1));

        assertEquals(at(Duration.ofDays(8).toMillis()), edited.fireTime());
        assertEquals(2, edited.version());
        assertEquals(4, reprioritised.priority());
        assertEquals(3, reprioritised.version());
        assertEquals(at(Duration.ofDays(1).plusHours(1).toMillis()), both.fireTime());
        assertEquals(-1, both.priority());
        assertEquals(edited.sequence(), both.sequence());
    }

    @Test
    void conditionalEdit_currentTagApplies_staleTagIsRefusedAndChangesNothing(ClockClient clock) {
        Timer added = clock.add("A", Duration.ofSeconds(5));
        Timer edited = clock.edit("A", TimerEdit.delay(Duration.ofSeconds(9)).ifMatch(added.etag()));

        refused(412, "precondition_failed",
                () -> clock.edit("A", TimerEdit.delay(Duration.ofSeconds(1)).ifMatch(added.etag())));
        refused(412, "precondition_failed", () -> clock.cancel("A", added.etag()));
        assertEquals(Optional.of(edited), clock.get("A"));

        clock.cancel("A", edited.etag());
        assertEquals(Optional.empty(), clock.get("A"));
    }

    @Test
    void cancel_removesTheTimer_itNeverFires(ClockClient clock) {
        clock.add("A", Duration.ofSeconds(1));
        clock.add("B", Duration.ofSeconds(1));

        clock.cancel("A");

        assertEquals(List.of("B"), ids(clock.advance(Duration.ofSeconds(2))));
    }

    @Test
    void timerRefusals_eachWithItsCode(ClockClient clock) {
        clock.add("A", Duration.ofSeconds(1));

        refused(409, "duplicate_id", () -> clock.add("A", Duration.ofSeconds(2)));
        refused(400, "invalid_id", () -> clock.add("..", Duration.ofSeconds(2)));
        refused(400, "invalid_id", () -> clock.add("x".repeat(129), Duration.ofSeconds(2)));
        refused(400, "invalid_delay", () -> clock.add("B", Duration.ofMillis(1_000_000_000_000_001L)));
        refused(404, "timer_not_found", () -> clock.cancel("nothing"));
        refused(404, "timer_not_found", () -> clock.edit("nothing", Duration.ZERO));
        refused(412, "precondition_failed", () -> clock.cancel("nothing", "*"));
        refused(413, "payload_too_large", () -> clock.add("C", Duration.ZERO, 0, "\"" + "x".repeat(17_000) + "\""));
        refused(400, "invalid_limit", () -> clock.timers(0));
        assertThrows(IllegalArgumentException.class, () -> clock.add("D", Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> clock.add("D", Duration.ZERO, 0, "{not json"));
        assertEquals(1, clock.info().size());
    }

    @Test
    void advance_firesDueTimersInFiringOrder_andMovesTheClock(ClockClient clock) {
        clock.add("late", Duration.ofDays(20));
        clock.add("second", Duration.ofDays(3));
        clock.add("third", Duration.ofDays(3), 1, null);
        clock.add("first", Duration.ofDays(3), -1, null);
        clock.add("earliest", Duration.ofDays(1));

        List<Timer> fired = clock.advance(Duration.ofDays(3));

        assertEquals(List.of("earliest", "first", "second", "third"), ids(fired));
        assertEquals(at(Duration.ofDays(3).toMillis()), clock.now());
        assertEquals(List.of("late"), ids(clock.timers(10)));
        assertEquals(List.of(), clock.advance(Duration.ZERO));
    }

    @Test
    void advanceTo_beforeNow_isRefused_onASystemClock_too(TimeServiceClient ts, ClockClient clock) {
        clock.advance(Duration.ofSeconds(5));
        refused(400, "invalid_advance", () -> clock.advanceTo(at(1)));

        ClockClient system = ts.createClock("system-" + UUID.randomUUID(), ClockOptions.system());
        try {
            refused(409, "clock_not_virtual", () -> system.advanceTo(Instant.now().plusSeconds(1)));
        } finally {
            system.delete();
        }
    }

    @Test
    void advanceTo_moreThanOneRequestFires_firesEveryTimerInOrder(ClockClient clock) {
        int count = ClockClient.ADVANCE_LIMIT + 1_500;
        ManyTimers.add(clock, "t", count, i -> Duration.ofMillis(count - i));

        List<Timer> fired = clock.advanceTo(at(count));

        assertEquals(count, fired.size());
        for (int i = 0; i < count; i++) {
            assertEquals("t" + (count - 1 - i), fired.get(i).id());
        }
        assertEquals(0, clock.info().size());
    }

    @Test
    void advanceToNext_movesToTheNextFireTime_nothingWhenEmpty(ClockClient clock) {
        assertEquals(List.of(), clock.advanceToNext());
        clock.add("A", Duration.ofMinutes(3));
        clock.add("B", Duration.ofMinutes(3));
        clock.add("C", Duration.ofMinutes(9));

        assertEquals(Optional.of("A"), clock.next().map(Timer::id));
        assertEquals(List.of("A", "B"), ids(clock.advanceToNext()));
        assertEquals(at(Duration.ofMinutes(3).toMillis()), clock.now());
    }

    @Test
    void advanceToNext_reachesALeaseEnd_whenNoTimerComesSooner(@TestClock(queued = true) ClockClient clock) {
        clock.add("A", Duration.ofSeconds(1));
        clock.add("B", Duration.ofHours(1));
        assertEquals(List.of("A"), ids(clock.advanceToNext()));
        List<Delivery> claimed = clock.claim(1, Duration.ofSeconds(30), Duration.ZERO);
        assertEquals(1, claimed.size());

        assertEquals(List.of(), clock.advanceToNext());            // the lease's end, 30 s on, comes before B
        assertEquals(at(31_000), clock.now());
        assertEquals(List.of(), clock.advanceToNext());            // then the retry the lost lease asked for
        assertTrue(clock.now().isAfter(at(31_000)) && clock.now().isBefore(at(3_600_000)), clock.now()::toString);
        assertEquals(1, clock.deliveries().ready());
        assertEquals(List.of("B"), ids(clock.advanceToNext()));
        assertEquals(at(3_600_000), clock.now());
    }

    @Test
    void due_listsWhatAnAdvanceWouldFire_withoutFiring(ClockClient clock) {
        clock.add("A", Duration.ofSeconds(1));
        clock.add("B", Duration.ofSeconds(2));
        clock.add("C", Duration.ofSeconds(3));

        assertEquals(List.of("A", "B"), ids(clock.due(at(2_000), 10)));
        assertEquals(List.of("A"), ids(clock.timers(1)));
        assertEquals(3, clock.info().size());
    }

    @Test
    void batch_appliesInOrder_andAnswersEachResult(ClockClient clock) {
        Timer c = clock.add("C", Duration.ofSeconds(9));

        List<BatchResult> results = clock.batch().add("A", Duration.ofSeconds(5))
                .add("B", Duration.ofSeconds(9), 1, "{\"customer\":7}").edit("A", Duration.ofSeconds(12))
                .cancel("C", c.etag()).commit();

        assertEquals(List.of("A", "B", "A", "C"), results.stream().map(BatchResult::id).toList());
        assertEquals(at(12_000), results.get(2).timer().fireTime());
        assertEquals(results.get(2).timer().etag(), results.get(2).etag());
        assertEquals("{\"customer\":7}", results.get(1).timer().payloadJson());
        assertNull(results.get(3).timer());
        assertEquals(c.etag(), results.get(3).etag());
        assertEquals(List.of("B", "A"), ids(clock.timers(10)));
    }

    @Test
    void batch_oneRefusal_changesNothing_andNamesTheOperation(ClockClient clock) {
        clock.add("A", Duration.ofSeconds(1));

        TimeServiceException refused = refused(409, "duplicate_id",
                () -> clock.batch().add("B", Duration.ofSeconds(1)).cancel("A").add("B", Duration.ZERO).commit());

        assertEquals(2, refused.problem().op());
        assertEquals(List.of("A"), ids(clock.timers(10)));
        refused(404, "timer_not_found", () -> clock.batch().edit("nothing", Duration.ZERO).commit());
        refused(412, "precondition_failed", () -> clock.batch().cancel("A", "\"1-99\"").commit());
        refused(400, "invalid_request", () -> clock.batch().commit());
    }

    @Test
    void batchAdds_decideByOnConflict_againstPendingReservedAndEarlierIds(TestClocks clocks) {
        ClockClient clock = clocks.create(ClockOptions.virtual().dedupeWindow(Duration.ofHours(1)));
        clock.add("sent", Duration.ofSeconds(1));
        clock.add("digest", Duration.ofMinutes(5), 0, "{\"n\":1}");
        clock.advance(Duration.ofSeconds(1)); // "sent" fires: reserved for the hour

        List<BatchResult> results = clock.batch()
                .add("sent", Duration.ofSeconds(9), 0, null, AddOptions.onConflict(OnConflict.KEEP))
                .add("digest", Duration.ofMinutes(1), 2, "{\"n\":2}", AddOptions.onConflict(OnConflict.REPLACE))
                .add("new", Duration.ofSeconds(3), 0, null, AddOptions.onConflict(OnConflict.KEEP))
                .add("new", Duration.ofSeconds(30), 0, null, AddOptions.onConflict(OnConflict.KEEP))
                .commit();

        assertTrue(results.get(0).decided().kept());
        assertEquals("fired", results.get(0).decided().previousState());
        assertNull(results.get(0).timer());
        assertEquals("replaced", results.get(1).decided().result());
        assertEquals(at(61_000), results.get(1).timer().fireTime());
        assertEquals(2, results.get(1).timer().version());
        assertEquals("added", results.get(2).decided().result());
        assertTrue(results.get(3).decided().kept(), "keeps the timer the batch added before it");
        assertEquals(at(4_000), results.get(3).timer().fireTime());
        assertEquals(List.of("new", "digest"), ids(clock.timers(10)));
        assertEquals("{\"n\":2}", clock.get("digest").orElseThrow().payloadJson());

        TimeServiceException refused = refused(409, "duplicate_id", () -> clock.batch()
                .add("other", Duration.ofSeconds(1))
                .add("sent", Duration.ofSeconds(1), 0, null, AddOptions.onConflict(OnConflict.REPLACE)).commit());
        assertEquals(1, refused.problem().op(), "a replace of a reserved id is refused, the whole batch with it");
        assertEquals(Optional.empty(), clock.get("other"));
    }

    @Test
    void createClock_isIdempotent_otherSettingsConflict_andInfoDescribesIt(TimeServiceClient ts) {
        String name = "orders-" + UUID.randomUUID();
        ClockOptions options = ClockOptions.virtual(5_000).queued()
                .retry(RetryPolicy.defaults().withMaxAttempts(3).withJitter(0));
        ClockClient clock = ts.createClock(name, options);
        try {
            ts.createClock(name, options);
            refused(409, "clock_conflict", () -> ts.createClock(name, ClockOptions.virtual(0)));

            ClockInfo info = clock.info();
            assertEquals(name, info.name());
            assertEquals(at(5_000), info.now());
            assertFalse(info.system());
            assertTrue(info.queued());
            assertEquals(3, info.retry().maxAttempts());
            assertEquals(0.0, info.retry().jitter());
            assertEquals(Duration.ofSeconds(1), info.retry().initialBackoff());
            assertEquals(0, info.size());
            assertNull(info.nextFireTime());
            assertTrue(info.deliveries().drained());
        } finally {
            clock.delete();
        }
        refused(404, "clock_not_found", clock::info);
        refused(404, "clock_not_found", () -> clock.add("A", Duration.ZERO));
        refused(404, "clock_not_found", clock::delete);
    }

    @Test
    void clockRefusals_eachWithItsCode(TimeServiceClient ts) {
        refused(409, "clock_undeletable", () -> ts.defaultClock().delete());
        refused(400, "invalid_id", () -> ts.createClock("no spaces", ClockOptions.virtual()));
        refused(400, "invalid_request", () -> ts.createClock("r-" + UUID.randomUUID(),
                ClockOptions.virtual().retry(RetryPolicy.defaults().withMaxAttempts(0))));
        refused(400, "invalid_limit", () -> ts.clocks(0, null));
    }

    @Test
    void clocks_pagesThroughEveryClockInNameOrder(TimeServiceClient ts) {
        String prefix = "page-" + UUID.randomUUID() + "-";
        List<ClockClient> created = List.of(ts.createClock(prefix + "a", ClockOptions.virtual()),
                ts.createClock(prefix + "b", ClockOptions.system()), ts.createClock(prefix + "c", ClockOptions.virtual()));
        try {
            List<String> pageByPage = new java.util.ArrayList<>();
            String after = prefix;
            for (List<ClockInfo> page; !(page = ts.clocks(1, after)).isEmpty() && page.get(0).name().startsWith(prefix);
                 after = page.get(0).name()) {
                pageByPage.add(page.get(0).name());
            }
            Map<String, ClockInfo> all = ts.clocks().stream().collect(Collectors.toMap(ClockInfo::name, c -> c));

            assertEquals(List.of(prefix + "a", prefix + "b", prefix + "c"), pageByPage);
            assertTrue(all.keySet().containsAll(pageByPage));
            assertTrue(all.containsKey("default"));
            assertTrue(all.get(prefix + "b").system());
        } finally {
            created.forEach(ClockClient::delete);
        }
    }

    static List<String> ids(List<Timer> timers) {
        return timers.stream().map(Timer::id).toList();
    }
}
