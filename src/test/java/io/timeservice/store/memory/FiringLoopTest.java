package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.SchedulerMetrics;
import org.junit.jupiter.api.Test;

/**
 * The firing thread's logic on a wall clock the test moves: system clocks fire exactly what is due, in order, wake
 * at the earliest deadline any of them told, and never early when the wall clock steps back.
 */
class FiringLoopTest {

    private static final long LEASE = 1_000;

    private final DeliveryTestClocks test = new DeliveryTestClocks();
    private final FiringLoop loop = new FiringLoop(test.wall::get, 1_000, 10_000);

    @Test
    void firesExactlyWhatIsDue_inFiringOrder_atItsDueTime() {
        TimerScheduler clock = systemClock("a");
        clock.add("later", 200, 0, null, Trace.NONE);
        clock.add("low", 100, 9, null, Trace.NONE);
        clock.add("high", 100, 1, null, Trace.NONE);
        long start = test.wall.get();
        assertThat(loop.nextDeadline()).isEqualTo(start + 100);

        test.wall.set(start + 99);
        assertThat(loop.fireDue()).isZero();
        test.wall.set(start + 100);
        assertThat(loop.fireDue()).isEqualTo(2);
        assertThat(claimIds(clock)).containsExactly("high", "low");
        assertThat(loop.nextDeadline()).isEqualTo(start + 200); // "later", before the leases just taken end
        test.wall.set(start + 200);
        assertThat(loop.fireDue()).isEqualTo(1);
        assertThat(claimIds(clock)).containsExactly("later");
    }

    @Test
    void aNewEarlierTimer_movesTheWakeUpForward() {
        TimerScheduler clock = systemClock("a");
        long start = test.wall.get();
        clock.add("far", 60_000, 0, null, Trace.NONE);
        assertThat(loop.nextDeadline()).isEqualTo(start + 60_000);
        clock.add("near", 10, 0, null, Trace.NONE);
        assertThat(loop.nextDeadline()).isEqualTo(start + 10);
    }

    @Test
    void theEarliestOfSeveralClocks_isTheWakeUp_andEachFiresItsOwn() {
        TimerScheduler a = systemClock("a");
        TimerScheduler b = systemClock("b");
        long start = test.wall.get();
        a.add("a1", 300, 0, null, Trace.NONE);
        b.add("b1", 100, 0, null, Trace.NONE);
        assertThat(loop.nextDeadline()).isEqualTo(start + 100);
        test.wall.set(start + 300);
        assertThat(loop.fireDue()).isEqualTo(2);
        assertThat(claimIds(a)).containsExactly("a1");
        assertThat(claimIds(b)).containsExactly("b1");
    }

    @Test
    void aWallClockStepBack_firesNothingEarly_andAStepForwardFiresWhatBecameDue() {
        TimerScheduler clock = systemClock("a");
        long start = test.wall.get();
        clock.add("t", 1_000, 0, null, Trace.NONE);
        test.wall.set(start - 3_600_000); // NTP steps back an hour
        assertThat(loop.fireDue()).isZero();
        clock.add("u", 500, 0, null, Trace.NONE); // due 500 ms after the latest time the clock showed, not earlier
        assertThat(clock.get("u").fireTime()).isEqualTo(start + 500);
        test.wall.set(start + 499);
        assertThat(loop.fireDue()).isZero();
        test.wall.set(start + 7_200_000); // and forward two hours
        assertThat(loop.fireDue()).isEqualTo(2);
        assertThat(claimIds(clock)).containsExactly("u", "t");
    }

    @Test
    void timersDueWhileNothingRan_fireAtOnce_whenFiringStarts() {
        TimerScheduler clock = test.create("a", DeliveryTestClocks.SYSTEM_QUEUE);
        clock.add("t", 10, 0, null, Trace.NONE);
        test.wall.addAndGet(60_000); // down for a minute
        test.clocks.fireWith(loop);
        assertThat(loop.nextDeadline()).isEqualTo(Long.MIN_VALUE);
        assertThat(loop.fireDue()).isEqualTo(1);
        assertThat(claimIds(clock)).containsExactly("t");
    }

    @Test
    void leasesAndRetries_ofASystemClock_runOnTheWallClock() {
        TimerScheduler clock = systemClock("a");
        long start = test.wall.get();
        clock.add("t", 0, 0, null, Trace.NONE);
        loop.fireDue();
        Delivery first = clock.claim(1, LEASE, 0).get(0);
        assertThat(first.leaseUntil()).isEqualTo(start + LEASE);
        assertThat(loop.nextDeadline()).isEqualTo(start + LEASE);
        test.wall.set(start + LEASE);
        loop.fireDue(); // the lease expires; the retry comes 100 ms after it
        assertThat(clock.deliveryCounts().waiting()).isEqualTo(1);
        assertThat(loop.nextDeadline()).isEqualTo(start + LEASE + 100);
        test.wall.set(start + LEASE + 100);
        loop.fireDue();
        assertThat(clock.deliveryCounts().ready()).isEqualTo(1);
        assertThat(clock.claim(1, LEASE, 0).get(0).attempt()).isEqualTo(2);
    }

    @Test
    void atTheDeliveryLimit_dueTimersStayPending_andFireOnceThereIsRoom() {
        DeliveryTestClocks small = new DeliveryTestClocks(100, 2);
        FiringLoop smallLoop = new FiringLoop(small.wall::get, 1_000, 10_000);
        TimerScheduler clock = small.create("a", DeliveryTestClocks.SYSTEM_QUEUE);
        small.clocks.fireWith(smallLoop);
        for (int i = 0; i < 3; i++) {
            clock.add("t" + i, 0, 0, null, Trace.NONE);
        }
        assertThat(smallLoop.fireDue()).isEqualTo(2);
        assertThat(clock.deliveryCounts().firingHeldBack()).isTrue();
        assertThat(clock.status().size()).isEqualTo(1);
        assertThat(clock.checkInvariants().ok()).isTrue();

        Delivery d = clock.claim(1, LEASE, 0).get(0);
        clock.ack(d.id(), d.claim());
        small.wall.addAndGet(ClockFiring.HELD_BACK_RETRY_MILLIS);
        assertThat(smallLoop.fireDue()).isEqualTo(1);
        assertThat(clock.deliveryCounts().firingHeldBack()).isFalse();
    }

    @Test
    void aRoundFiresAtMostItsSize_andTheRestFollowsAtOnce() {
        FiringLoop smallRounds = new FiringLoop(test.wall::get, 1_000, 3);
        TimerScheduler clock = test.create("a", DeliveryTestClocks.SYSTEM_QUEUE);
        test.clocks.fireWith(smallRounds);
        for (int i = 0; i < 7; i++) {
            clock.add("t" + i, 0, 0, null, Trace.NONE);
        }
        assertThat(smallRounds.fireDue()).isEqualTo(3);
        assertThat(smallRounds.nextDeadline()).isLessThanOrEqualTo(test.wall.get());
        assertThat(smallRounds.fireDue()).isEqualTo(3);
        assertThat(smallRounds.fireDue()).isEqualTo(1);
        assertThat(claimIds(clock)).containsExactly("t0", "t1", "t2", "t3", "t4", "t5", "t6");
    }

    @Test
    void theThread_deliversTimersAfterTheirDueTime_onTheRealClock() throws Exception {
        DeliveryTestClocks real = new DeliveryTestClocks();
        Clocks clocks = new Clocks((clock, budget) -> new TimerScheduler(clock, 4, budget, System::currentTimeMillis,
                SchedulerMetrics.NONE), new PendingBudget(1000, Long.MAX_VALUE), 10, System::currentTimeMillis);
        TimerScheduler clock = clocks.create("real", 0, DeliveryTestClocks.SYSTEM_QUEUE).clock().scheduler();
        FiringLoop thread = new FiringLoop(System::currentTimeMillis, 1_000, 10_000);
        clocks.fireWith(thread);
        thread.start();
        try {
            List<Timer> added = new ArrayList<>();
            for (int delay = 50; delay <= 500; delay += 50) {
                added.add(clock.add("t" + delay, delay, 0, null, Trace.NONE));
            }
            List<Delivery> delivered = new ArrayList<>();
            await("every timer delivered").atMost(Duration.ofSeconds(30)).pollInSameThread().until(() -> {
                for (Delivery d : clock.claim(100, 60_000, 5_000)) {
                    assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(d.fireTime());
                    delivered.add(d);
                }
                return delivered.size() >= added.size();
            });
            assertThat(delivered).extracting(Delivery::id)
                    .containsExactlyElementsOf(added.stream().map(Timer::id).toList());
            assertThat(thread.isAlive()).isTrue();
        } finally {
            thread.stop();
        }
        assertThat(thread.isAlive()).isFalse();
        assertThat(real.clocks.count()).isEqualTo(1);
    }

    @Test
    void aRoundRefusedByJournalBackPressure_isTriedAgainWithBackoff_andShowsInLagAndRefusedClocks() {
        PressureLog journal = new PressureLog();
        test.clocks.attachLog(journal);
        TimerScheduler clock = systemClock("a");
        long start = test.wall.get();
        clock.add("t", 100, 0, null, Trace.NONE);
        journal.pressed = true;
        test.wall.set(start + 100);
        assertThat(loop.fireDue()).isZero();
        assertThat(loop.refusingClocks()).isEqualTo(1);
        // the refused round asked for another: without it the clock would never fire again
        assertThat(loop.nextDeadline()).isEqualTo(start + 100 + ClockFiring.REFUSED_RETRY_MILLIS);
        test.wall.set(start + 100 + ClockFiring.REFUSED_RETRY_MILLIS);
        assertThat(loop.fireDue()).isZero();
        assertThat(loop.nextDeadline()) // backs off: twice as long after the second refusal
                .isEqualTo(start + 100 + 3 * ClockFiring.REFUSED_RETRY_MILLIS);
        test.wall.set(start + 600);
        assertThat(loop.lagMillis()).isEqualTo(500); // overdue since the first refused round

        journal.pressed = false;
        assertThat(loop.fireDue()).isEqualTo(1);
        assertThat(loop.refusingClocks()).isZero();
        assertThat(loop.lagMillis()).isZero();
        assertThat(claimIds(clock)).containsExactly("t");
    }

    @Test
    void aDeletedSystemClock_isForgottenByTheFiringThread_notKeptUntilItsOldDeadline() {
        TimerScheduler clock = systemClock("a");
        clock.add("far", Limits.MAX_DELAY, 0, null, Trace.NONE);
        assertThat(loop.clocksWaiting()).isEqualTo(1);
        test.clocks.delete("a");
        assertThat(loop.clocksWaiting()).isZero();
        assertThat(loop.nextDeadline()).isEqualTo(Long.MAX_VALUE);
    }

    /** A journal whose back-pressure the test switches on: {@code requireWritable} refuses, as over its limit. */
    private static final class PressureLog implements MutationLog {
        volatile boolean pressed;
        private long appended;

        @Override
        public void requireWritable() {
            if (pressed) {
                throw new ProblemException(ErrorCode.STORAGE_UNAVAILABLE, "unflushed bytes over the limit (test)");
            }
        }

        @Override
        public synchronized long append(Mutation mutation) {
            return ++appended;
        }

        @Override
        public void awaitDurable(long position) {
        }
    }

    private TimerScheduler systemClock(String name) {
        TimerScheduler clock = test.create(name, DeliveryTestClocks.SYSTEM_QUEUE);
        test.clocks.fireWith(loop);
        loop.fireDue(); // the catch-up round every clock gets when firing starts
        return clock;
    }

    private static List<String> claimIds(TimerScheduler clock) {
        return clock.claim(100, LEASE, 0).stream().map(Delivery::id).toList();
    }
}
