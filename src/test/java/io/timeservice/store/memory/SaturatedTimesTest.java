package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery.State;
import io.timeservice.model.Delivery;
import io.timeservice.model.Limits;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/**
 * A queueing virtual clock near the end of time ({@link Limits#MAX_TIME} - 10^7, reached over HTTP by advances): lease
 * ends and retry times that would pass it end at it instead of passing it (near 2^63 - 1 they wrapped into the past,
 * where every ack was {@code claim_lost} and every delivery went dead).
 */
class SaturatedTimesTest {

    private static final long NEAR_END = Limits.MAX_TIME - 10_000_000;
    private static final RetryPolicy WEEK_BACKOFF = new RetryPolicy(3, RetryPolicy.MAX_BACKOFF_MILLIS, 1.0,
            RetryPolicy.MAX_BACKOFF_MILLIS, 0.0);

    private final DeliveryTestClocks test = new DeliveryTestClocks();
    private final TimerScheduler queue = test.create("end", new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, WEEK_BACKOFF));

    SaturatedTimesTest() {
        while (queue.now() < NEAR_END) { // as a client gets there: an advance moves at most MAX_DELAY
            queue.advance(null, Math.min(NEAR_END, TimeRules.saturatedAdd(queue.now(), Limits.MAX_DELAY)), 1, Trace.NONE);
        }
    }

    @Test
    void aLeasePastTheEndOfTime_endsAtLongMaxValue_andItsAckSucceeds() {
        Delivery leased = fireAndClaim("a");

        assertThat(leased.leaseUntil()).isEqualTo(Limits.MAX_TIME);
        queue.ack("a", leased.claim());
        assertThat(queue.deliveryCounts().total()).isZero();
    }

    @Test
    void anExtendPastTheEndOfTime_endsAtLongMaxValue() {
        Delivery leased = fireAndClaim("a");

        assertThat(queue.extend("a", leased.claim(), Limits.MAX_LEASE_MILLIS).leaseUntil()).isEqualTo(Limits.MAX_TIME);
        assertThat(queue.deliveryCounts().inFlight()).isEqualTo(1);
    }

    @Test
    void aNackPastTheEndOfTime_waitsUntilTheEndOfTime_notReadyAtOnce() {
        Delivery leased = fireAndClaim("a");

        Delivery nacked = queue.nack("a", leased.claim(), RetryPolicy.MAX_BACKOFF_MILLIS);
        assertThat(nacked.state()).isEqualTo(State.WAITING);
        assertThat(nacked.retryAt()).isEqualTo(Limits.MAX_TIME);
        Delivery backedOff = fireAndClaim("b");
        assertThat(queue.nack("b", backedOff.claim(), null).retryAt()).isEqualTo(Limits.MAX_TIME);
        assertThat(queue.deliveryCounts().waiting()).isEqualTo(2);
    }

    @Test
    void aLeaseThatEndsAtTheEndOfTime_expiresIntoARetry_notIntoTheDeadLetters() {
        Delivery leased = fireAndClaim("a");
        queue.advance(null, Limits.MAX_TIME, Integer.MAX_VALUE, Trace.NONE);

        Delivery again = queue.claim(1, Limits.MAX_LEASE_MILLIS, 0).get(0);   // the retry is due at the end of time too
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.readyAt()).isEqualTo(Limits.MAX_TIME);
        assertThat(queue.deliveryCounts().dead()).isZero();
        assertThat(again.claim()).isNotEqualTo(leased.claim());
    }

    private Delivery fireAndClaim(String id) {
        queue.add(id, 0, 0, null, Trace.NONE);
        queue.advance(0, Trace.NONE);
        return queue.claim(1, Limits.MAX_LEASE_MILLIS, 0).get(0);
    }
}
