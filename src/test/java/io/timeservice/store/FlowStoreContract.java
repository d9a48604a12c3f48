package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Precondition;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of flow control (issue 44) on every store that keeps keys, on a virtual queueing clock {@value #Q}:
 * a timer's {@code key} through add, batch, delivery, fork and snapshot, and its refusals.
 */
public abstract class FlowStoreContract extends StoreContract {

    static final String Q = "q";
    private static final RetryPolicy THREE = new RetryPolicy(3, 400, 2.0, 3_000, 0.0);
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, THREE);

    @BeforeEach
    void queueClock() {
        clocks().create(Q, 0, QUEUE);
    }

    protected final Timer add(String clock, String id, long delay, String key) {
        return timers().add(clock, id, Due.after(delay), 0, null, key, Trace.NONE);
    }

    protected final void advance(String clock, long by) {
        timers().advance(clock, by, null, Integer.MAX_VALUE, Trace.NONE);
    }

    @Test
    void aTimersKey_isKept_andShownByItsDelivery() {
        assertThat(add(Q, "a", 10, "tenant-1").key()).isEqualTo("tenant-1");
        assertThat(add(Q, "b", 10, null).key()).isNull();
        assertThat(timers().get(Q, "a").key()).isEqualTo("tenant-1");
        List<Timer> batch = timers().batch(Q, List.of(new BatchOp.Add("c", Due.after(10), 0, "[1]", "partner:acme"),
                new BatchOp.Add("d", Due.after(10), 0, null)));
        assertThat(batch).extracting(Timer::key).containsExactly("partner:acme", null);
        assertThat(timers().edit(Q, "a", Due.after(5), null, Precondition.NONE, Trace.NONE).key())
                .isEqualTo("tenant-1");
        assertThat(timers().get(Q, "a").key()).isEqualTo("tenant-1");

        advance(Q, 10);

        assertThat(deliveries().claim(Q, 10, 1_000, 0)).extracting(Delivery::id, Delivery::key)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", "tenant-1"),
                        org.assertj.core.groups.Tuple.tuple("b", null),
                        org.assertj.core.groups.Tuple.tuple("c", "partner:acme"),
                        org.assertj.core.groups.Tuple.tuple("d", null));
    }

    @Test
    void aKeyBreakingTheIdRules_isRefused_andNothingChanges() {
        assertRefused(() -> add(Q, "a", 10, ""), ErrorCode.INVALID_REQUEST, "key must be 1 to 128 characters long,"
                + " got 0");
        assertRefused(() -> add(Q, "a", 10, "x".repeat(129)), ErrorCode.INVALID_REQUEST,
                "key must be 1 to 128 characters long, got 129");
        assertRefused(() -> add(Q, "a", 10, "a b"), ErrorCode.INVALID_REQUEST,
                "key may contain only A-Z a-z 0-9 . _ - ~ :, found U+0020 at position 1");
        assertRefused(() -> timers().batch(Q, List.of(new BatchOp.Add("b", Due.after(1), 0, null, "ok"),
                        new BatchOp.Add("c", Due.after(1), 0, null, ".."))), ErrorCode.INVALID_REQUEST,
                "operation 1: key may not be \"..\": a URL path segment cannot carry it as itself");
        assertThat(timers().status(Q).size()).isZero();
    }

    @Test
    void aFork_andASnapshot_keepTheKeys_ofTimersAndDeliveries() {
        add(Q, "a", 10, "tenant-1");
        add(Q, "b", 20, "tenant-2");
        advance(Q, 10);

        clocks().copy("fork", Q);
        ClockSnapshot saved = clocks().snapshot(Q);
        clocks().load("loaded", saved);

        for (String clock : List.of(Q, "fork", "loaded")) {
            assertThat(timers().get(clock, "b").key()).as(clock).isEqualTo("tenant-2");
            assertThat(deliveries().claim(clock, 1, 1_000, 0)).as(clock).extracting(Delivery::key)
                    .containsExactly("tenant-1");
        }
        assertThat(saved.timers()).extracting(Timer::key).containsExactly("tenant-2");
        assertThat(saved.deliveries()).extracting(Delivery::key).containsExactly("tenant-1");
    }
}
