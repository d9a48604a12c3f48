package io.timeservice.client;

import static io.timeservice.client.Refusals.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import io.timeservice.testkit.TestClock;
import io.timeservice.testkit.TestClocks;
import io.timeservice.testkit.TimeServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A live clock's changes through the client (pause, resume, {@link ClockChange}) against a real TimeService. */
@ExtendWith(TimeServiceExtension.class)
class ClockChangeTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private static List<String> claimedIds(ClockClient clock) {
        return clock.claim(10, LEASE, Duration.ZERO).stream().map(Delivery::id).toList();
    }

    @Test
    void pause_holdsTheDeliveriesBack_andResume_handsThemOutInOrder(@TestClock(queued = true) ClockClient clock) {
        clock.add("A", Duration.ofSeconds(1));
        clock.add("B", Duration.ofSeconds(2));

        ClockInfo paused = clock.pause();
        assertTrue(paused.paused());
        assertTrue(clock.info().paused());
        assertTrue(clock.pause().paused(), "a pause of a paused clock changes nothing");
        assertEquals(2, clock.advance(Duration.ofSeconds(2)).size(), "timers still fire into deliveries");
        assertEquals(List.of(), claimedIds(clock));

        ClockInfo resumed = clock.resume();
        assertFalse(resumed.paused());
        assertFalse(clock.info().paused());
        assertEquals(List.of("A", "B"), claimedIds(clock));
    }

    @Test
    void pause_ofAClockThatNeitherQueuesNorPushes_isRefused(ClockClient clock) {
        refused(400, "invalid_request", clock::pause);
        assertFalse(clock.info().paused());
    }

    @Test
    void change_setsTheRetryPolicy_andPausesInTheSameCall(@TestClock(queued = true) ClockClient clock) {
        RetryPolicy policy = new RetryPolicy(3, Duration.ofSeconds(2), 1.0, Duration.ofSeconds(2), 0.0);

        ClockInfo changed = clock.change(ClockChange.none().retry(policy).paused(true));

        assertEquals(policy, changed.retry());
        assertTrue(changed.paused());
        assertEquals(policy, clock.info().retry());
        clock.add("A", Duration.ZERO);
        clock.advance(Duration.ZERO);
        assertEquals(List.of(), claimedIds(clock));
        clock.change(ClockChange.none().paused(false));
        Delivery first = clock.claim(1, LEASE, Duration.ZERO).get(0);
        Delivery waiting = clock.nack(first);
        assertEquals(first.fireTime().plus(Duration.ofSeconds(2)), waiting.retryAt(), "waited by the new policy");
    }

    @Test
    void change_ofTheClockConcurrency_appliesFromTheNextClaim(TestClocks clocks) {
        ClockClient clock = clocks.create(ClockOptions.virtual(0).queued()
                .flow(FlowControl.perKey().clockConcurrency(1)));
        for (String id : List.of("A", "B", "C")) {
            clock.add(id, Duration.ZERO);
        }
        clock.advance(Duration.ZERO);
        assertEquals(List.of("A"), claimedIds(clock));

        clock.change(ClockChange.none().clockConcurrency(3).clockRate(FlowRate.of(100, Duration.ofSeconds(1))));

        assertEquals(List.of("B", "C"), claimedIds(clock));
    }

    @Test
    void change_ofFlowLimits_onAClockWithoutFlowControl_isRefused_andAnEmptyChangeIsNotSent(
            @TestClock(queued = true) ClockClient clock) {
        refused(400, "invalid_request", () -> clock.change(ClockChange.none().clockConcurrency(2)));
        assertThrows(IllegalArgumentException.class, () -> clock.change(ClockChange.none()));
        assertEquals(ClockChange.none().paused(true), ClockChange.none().paused(true));
    }
}
