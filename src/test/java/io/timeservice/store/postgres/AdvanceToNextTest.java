package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.NextEvent;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.SchedulerException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.ClockStore;
import io.timeservice.store.DeliveryStore;
import io.timeservice.store.SchedulerMetrics;
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.Clocks;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.MemoryDeliveryStore;
import io.timeservice.store.memory.MemoryTimerStore;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.TimerScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code advance {"next": true}} through the store ports, on the memory store and on the PostgreSQL store alike:
 * a scenario stepped event by event over timers, a lease ending, retries, a tie, a bounded step, and
 * the refusals.
 */
class AdvanceToNextTest {

    private static final long START = 1_000;
    /** Three attempts, 100 ms then 200 ms backoff, no jitter: retry times are exact. */
    private static final RetryPolicy RETRY = new RetryPolicy(3, 100, 2.0, 1_000, 0.0);
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, RETRY);

    private TestDatabase database;
    private PostgresStore postgres;
    private TimerStore timers;
    private DeliveryStore deliveries;
    private ClockStore clocks;

    private void open(String store) {
        if (store.equals("memory")) {
            Clocks memory = new Clocks((clock, budget) -> new TimerScheduler(clock, 4, budget, () -> 0L,
                    SchedulerMetrics.NONE), new PendingBudget(10_000, 10_000_000), 10, () -> 0L);
            timers = new MemoryTimerStore(memory);
            deliveries = new MemoryDeliveryStore(memory);
            clocks = new MemoryClockStore(memory);
        } else {
            database = TestDatabase.create(AdvanceToNextTest.class, 2);
            postgres = PostgresStore.open(database.dataSource(), 10_000, 10_000_000, 10, ClockSettings.Mode.VIRTUAL);
            timers = new PostgresTimerStore(postgres);
            deliveries = new PostgresDeliveryStore(postgres);
            clocks = new PostgresClockStore(postgres);
        }
    }

    @AfterEach
    void close() {
        if (postgres != null) {
            postgres.close();
            database.close();
        }
    }

    private NextAdvance next(String clock) {
        return timers.advanceToNext(clock, 1000, Trace.NONE);
    }

    private static void assertStep(NextAdvance step, NextEvent.Kind kind, long now, String... fired) {
        assertThat(step.event() == null ? null : step.event().kind()).as("event").isEqualTo(kind);
        assertThat(step.result().now()).as("now").isEqualTo(now);
        assertThat(step.result().fired()).extracting(Timer::id).as("fired").containsExactly(fired);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "postgres"})
    void next_stepsThroughTimersLeaseEndsAndRetries_inTimeOrder(String store) {
        open(store);
        clocks.create("q", START, QUEUE);

        assertStep(next("q"), null, START);                                   // nothing pending: the clock stays
        timers.add("q", "a", 50, 0, null, Trace.NONE);
        timers.add("q", "b", 50, -1, null, Trace.NONE);
        timers.add("q", "c", 2_000, 0, null, Trace.NONE);

        assertStep(next("q"), NextEvent.Kind.TIMER, 1_050, "b", "a");
        Delivery b = deliveries.claim("q", 1, 1_000, 0).get(0);
        assertThat(b.id()).isEqualTo("b");

        assertStep(next("q"), NextEvent.Kind.LEASE, 2_050);                    // b's lease ends before c is due
        assertThat(deliveries.counts("q").waiting()).isEqualTo(1);            // b waits for 2_050 + 100

        assertStep(next("q"), NextEvent.Kind.RETRY, 2_150);
        assertThat(deliveries.counts("q").ready()).isEqualTo(2);              // a, and b again

        assertStep(next("q"), NextEvent.Kind.TIMER, 3_000, "c");
        List<Delivery> claimed = deliveries.claim("q", 3, 1_000, 0);
        assertThat(claimed).extracting(Delivery::id).containsExactly("a", "b", "c");
        deliveries.ack("q", "a", claimed.get(0).claim());

        timers.add("q", "d", 1_000, 0, null, Trace.NONE);                     // due exactly when b's and c's leases end
        assertStep(next("q"), NextEvent.Kind.TIMER, 4_000, "d");               // a tie: the timer is named
        assertThat(deliveries.counts("q").inFlight()).isZero();
        assertThat(deliveries.counts("q").waiting()).isEqualTo(2);
        ackAll(1);                                                            // d

        assertStep(next("q"), NextEvent.Kind.RETRY, 4_100);                    // c's second attempt: 100 ms later
        ackAll(1);
        assertStep(next("q"), NextEvent.Kind.RETRY, 4_200);                    // b's third attempt: 200 ms later
        ackAll(1);
        assertStep(next("q"), null, 4_200);
        assertThat(timers.status("q").now()).isEqualTo(4_200);
    }

    private void ackAll(int expected) {
        List<Delivery> claimed = deliveries.claim("q", 10, 1_000, 0);
        assertThat(claimed).hasSize(expected);
        for (Delivery delivery : claimed) {
            deliveries.ack("q", delivery.id(), delivery.claim());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "postgres"})
    void next_onAResponseClock_firesOnlyTheEarliestTime_boundedByTheLimit(String store) {
        open(store);
        clocks.create("r", 0, ClockSettings.VIRTUAL);
        timers.add("r", "x", 10, 0, null, Trace.NONE);
        timers.add("r", "y", 10, 0, null, Trace.NONE);
        timers.add("r", "z", 10, 0, null, Trace.NONE);
        timers.add("r", "later", 11, 0, null, Trace.NONE);

        NextAdvance bounded = timers.advanceToNext("r", 2, Trace.NONE);

        assertStep(bounded, NextEvent.Kind.TIMER, 10, "x", "y");
        assertThat(bounded.result().complete()).isFalse();
        assertStep(next("r"), NextEvent.Kind.TIMER, 10, "z");                  // the rest due at the same time
        assertStep(next("r"), NextEvent.Kind.TIMER, 11, "later");
        AdvanceResult nothing = next("r").result();
        assertThat(nothing.fired()).isEmpty();
        assertThat(nothing.now()).isEqualTo(11);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "postgres"})
    void next_isRefusedOnASystemClock_forALimitBelowOne_andForAMissingClock(String store) {
        open(store);
        clocks.create("sys", 0, ClockSettings.SYSTEM);
        clocks.create("v", 0, ClockSettings.VIRTUAL);

        assertThatThrownBy(() -> next("sys")).isInstanceOfSatisfying(SchedulerException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CLOCK_NOT_VIRTUAL));
        assertThatThrownBy(() -> timers.advanceToNext("v", 0, Trace.NONE)).isInstanceOfSatisfying(
                SchedulerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_LIMIT));
        assertThatThrownBy(() -> next("nope")).isInstanceOfSatisfying(SchedulerException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
    }
}
