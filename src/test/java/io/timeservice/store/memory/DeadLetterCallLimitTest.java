package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/**
 * One redrive or delete takes at most {@link Limits#MAX_DEAD_LETTERS_PER_CALL} dead deliveries of an id, the first
 * by sequence, so that its journal record always reads back and its lock hold and answer stay bounded; the next
 * call takes the rest.
 */
class DeadLetterCallLimitTest {

    private static final int DEAD = Limits.MAX_DEAD_LETTERS_PER_CALL + 1;
    private static final ClockSettings ONE_ATTEMPT = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(1, 0, 1.0, 0, 0.0));

    private final DeliveryTestClocks test = new DeliveryTestClocks(2 * DEAD, 2 * DEAD);
    private final TimerScheduler queue = test.create("hot", ONE_ATTEMPT);

    @Test
    void aHotIdsDeadLetters_goInCallsOfAtMostTheLimit_lowestSequencesFirst() {
        for (int i = 0; i < DEAD; i++) { // one id, fired again and again
            queue.add("hot", 0, 0, null, Trace.NONE);
            queue.advance(0, Trace.NONE);
        }
        while (!queue.claim(Limits.MAX_CLAIM, Limits.MIN_LEASE_MILLIS, 0).isEmpty()) {
            // leased; the leases end below, on the only attempt
        }
        queue.advance(Limits.MIN_LEASE_MILLIS, Trace.NONE);
        assertThat(queue.deliveryCounts().dead()).isEqualTo(DEAD);

        List<Delivery> redriven = queue.redrive("hot", null);
        assertThat(redriven).hasSize(Limits.MAX_DEAD_LETTERS_PER_CALL);
        assertThat(redriven.get(0).sequence()).isEqualTo(1);
        assertThat(redriven.get(redriven.size() - 1).sequence()).isEqualTo(Limits.MAX_DEAD_LETTERS_PER_CALL);
        assertThat(queue.deliveryCounts().dead()).isEqualTo(1);
        assertThat(queue.deleteDead("hot", null)).extracting(Delivery::sequence).containsExactly((long) DEAD);
        assertThatThrownBy(() -> queue.deleteDead("hot", null)).isInstanceOfSatisfying(ProblemException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.DELIVERY_NOT_FOUND));
    }
}
