package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.timeservice.model.ClockChange;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowRate;
import io.timeservice.model.Limits;
import io.timeservice.model.RetryPolicy;
import org.junit.jupiter.api.Test;

/**
 * The contract of a live clock's changes (issue 47, {@link ClockStore#change}): a pause that holds deliveries and
 * retries back until the resume, a retry policy and clock-wide flow limits changed on a live clock, the retry
 * duration, and the refusals; on both stores (MemoryClockChangeStoreContractTest, PostgresClockChangeStoreContractTest).
 */
public abstract class ClockChangeStoreContract extends FlowContractSupport {

    private static final ClockChange PAUSE = ClockChange.pause(true);
    private static final ClockChange RESUME = ClockChange.pause(false);

    private Delivery only(String clock) {
        List<Delivery> claimed = deliveries().claim(clock, 10, 1_000, 0);
        assertThat(claimed).hasSize(1);
        return claimed.get(0);
    }

    @Test
    void aPausedClock_takesTimersAndFiresThem_butHandsOutNothing_untilItsResume_thenInFiringOrder() {
        add(Q, "late", 20, null);
        add(Q, "early", 10, null);
        assertThat(clocks().change(Q, PAUSE).settings().paused()).isTrue();
        add(Q, "later", 30, null);
        advance(Q, 50);

        assertThat(claimIds(Q, 10)).as("paused").isEmpty();
        assertThat(clocks().get(Q).settings().paused()).isTrue();
        assertThat(clocks().get(Q).deliveries().ready()).as("fired, held back, never lost").isEqualTo(3);

        assertThat(clocks().change(Q, RESUME).settings().paused()).isFalse();
        assertThat(claimIds(Q, 10)).containsExactly("early", "late", "later");
    }

    @Test
    void aPausedClock_holdsItsRetriesBack_andAPauseTwice_changesNothing() {
        add(Q, "t", 10, null);
        advance(Q, 10);
        Delivery first = only(Q);
        deliveries().nack(Q, "t", first.claim(), null);
        clocks().change(Q, PAUSE);
        ClockSettings paused = clocks().change(Q, PAUSE).settings();
        advance(Q, 10_000);

        assertThat(claimIds(Q, 10)).as("the retry is due, but held back").isEmpty();
        assertThat(paused).isEqualTo(QUEUE.withPaused(true));
        clocks().change(Q, RESUME);
        assertThat(only(Q).attempt()).isEqualTo(2);
    }

    @Test
    void aPausedClock_isStillFoundByThePutThatMadeIt() {
        clocks().change(Q, PAUSE);

        assertThat(clocks().create(Q, 0, QUEUE).created()).as("a pause is set on its own").isFalse();
        assertThat(clocks().get(Q).settings()).isEqualTo(QUEUE.withPaused(true));
    }

    @Test
    void aChangedRetryPolicy_appliesFromTheNextFailedAttempt_andAWaitingRetryKeepsItsTime() {
        add(Q, "t", 10, null);
        advance(Q, 10);
        deliveries().nack(Q, "t", only(Q).claim(), null); // THREE: waits 400, until 410
        RetryPolicy slow = new RetryPolicy(5, 1_000, 1.0, 1_000, 0.0);
        assertThat(clocks().change(Q, new ClockChange(null, slow, null, null, null)).settings().retry())
                .isEqualTo(slow);

        advance(Q, 400);
        Delivery second = only(Q);
        assertThat(second.attempt()).isEqualTo(2);
        Delivery waiting = deliveries().nack(Q, "t", second.claim(), null);
        assertThat(waiting.retryAt()).as("the new policy's wait").isEqualTo(410 + 1_000);

        for (int attempt = 3; attempt <= 4; attempt++) {
            advance(Q, 1_000);
            deliveries().nack(Q, "t", only(Q).claim(), null);
        }
        advance(Q, 1_000);
        Delivery fifth = only(Q);
        assertThat(fifth.attempt()).as("past THREE's last attempt").isEqualTo(5);
        assertThat(deliveries().nack(Q, "t", fifth.claim(), null).state()).isEqualTo(Delivery.State.DEAD);
    }

    @Test
    void aRetryDuration_keepsRetryingPastMaxAttempts_untilItHasPassedSinceTheFireTime() {
        clocks().create("d", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                new RetryPolicy(2, 100, 1.0, 100, 0.0, 1_000)));
        add("d", "t", 10, null);
        advance("d", 10);
        Delivery last = null;
        for (int attempt = 1; attempt <= 11; attempt++) {
            Delivery claimed = only("d");
            assertThat(claimed.attempt()).isEqualTo(attempt);
            last = deliveries().nack("d", "t", claimed.claim(), null);
            if (last.state() == Delivery.State.DEAD) {
                break;
            }
            advance("d", 100);
        }

        assertThat(last.attempt()).as("fired at 10, failed at 1010 = 10 + 1000").isEqualTo(11);
        assertThat(last.state()).isEqualTo(Delivery.State.DEAD);
        assertThat(last.deadReason()).isEqualTo("nacked on attempt 11 of 2, 1000 ms after it fired");
    }

    @Test
    void aRetryDuration_reachedBeforeMaxAttempts_waitsForTheLastAttempt() {
        clocks().create("d", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                new RetryPolicy(3, 5_000, 1.0, 5_000, 0.0, 1_000)));
        add("d", "t", 10, null);
        advance("d", 10);
        for (int attempt = 1; attempt <= 2; attempt++) {
            assertThat(deliveries().nack("d", "t", only("d").claim(), null).state()).as("attempt " + attempt)
                    .isEqualTo(Delivery.State.WAITING);
            advance("d", 5_000);
        }
        assertThat(deliveries().nack("d", "t", only("d").claim(), null).state()).isEqualTo(Delivery.State.DEAD);
    }

    @Test
    void clockWideFlowLimits_change_andApplyToTheNextClaim() {
        flowClock("f", new FlowLimits(null, null, null, 1, null));
        ready("f", "a", "a", 2);
        ready("f", "b", "b", 2);
        advance("f", 10);
        assertThat(claimIds("f", 10)).containsExactly("a0");

        ClockSettings raised = clocks().change("f", new ClockChange(null, null, 3, null, null)).settings();

        assertThat(raised.flow()).isEqualTo(new FlowLimits(null, null, null, 3, null));
        assertThat(claimIds("f", 10)).containsExactly("b0", "a1");
    }

    @Test
    void aChangedClockRate_keepsTheWholeTokensItsBucketHolds() {
        flowClock("f", new FlowLimits(null, null, null, null, new FlowRate(2, 1_000)));
        ready("f", "a", "a", 6);
        advance("f", 10);
        assertThat(claimIds("f", 10)).containsExactly("a0", "a1");

        clocks().change("f", new ClockChange(null, null, null, new FlowRate(10, 1_000), null));

        assertThat(claimIds("f", 10)).as("the empty bucket stays empty at the new rate").isEmpty();
        advance("f", 200);
        assertThat(claimIds("f", 10)).as("two tokens in 200 ms at 10 a second").containsExactly("a2", "a3");
    }

    @Test
    void changes_thatNameNothing_pauseAClockWithoutDeliveries_orFlowWithoutFlowControl_areRefused() {
        assertRefused(() -> clocks().change(Q, new ClockChange(null, null, null, null, null)),
                ErrorCode.INVALID_REQUEST, "a change of a clock names at least one of paused, retry,"
                        + " clockConcurrency, clockRate, push");
        assertRefused(() -> clocks().change(Limits.DEFAULT_CLOCK, PAUSE), ErrorCode.INVALID_REQUEST,
                "a pause holds deliveries back: a clock with delivery \"response\" has none (pause a clock with"
                        + " delivery \"queue\" or \"push\")");
        assertRefused(() -> clocks().change(Q, new ClockChange(true, null, 2, null, null)), ErrorCode.INVALID_REQUEST,
                "flow control is chosen when a clock is made: this clock has none, so clockConcurrency and clockRate"
                        + " cannot change");
        flowClock("f", new FlowLimits(null, null, null, 1, null));
        assertRefused(() -> clocks().change("f", new ClockChange(true, null, 0, null, null)),
                ErrorCode.INVALID_REQUEST, "clockConcurrency must be between 1 and 1000000, got 0");
        assertRefused(() -> clocks().change("nope", PAUSE), ErrorCode.CLOCK_NOT_FOUND, "no clock is named nope");

        assertThat(clocks().get(Q).settings()).as("nothing changed").isEqualTo(QUEUE);
        assertThat(clocks().get("f").settings().paused()).as("nothing changed").isFalse();
    }
}
