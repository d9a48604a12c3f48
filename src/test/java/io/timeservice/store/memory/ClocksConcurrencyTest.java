package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.FiringOrder;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueListing;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/**
 * Sixteen threads drive eight clocks at once (add, cancel, edit, advance, read), started together by a barrier;
 * each clock is checked afterwards against a model built from what the threads saw succeed: every timer added to a
 * clock is exactly one of fired by that clock, cancelled or still pending there; each advance fired in firing
 * order and only its own clock's timers; the clock's time is the sum of its advances; sequences a clock issued are
 * unique; the shared budget counts every clock's pending timers; the invariants hold.
 */
class ClocksConcurrencyTest {

    static final int CLOCKS = 8;
    static final int THREADS = 16;
    static final int OPERATIONS_PER_THREAD = 3000;

    /** What one worker saw succeed on one clock. */
    record ClockLog(List<Timer> added, List<Timer> cancelled, List<AdvanceResult> advances, List<Long> advancedBy) {

        static ClockLog empty() {
            return new ClockLog(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }
    }

    @Test
    void sixteenThreadsOnEightClocks_everyClockAgreesWithItsModel() throws Exception {
        Clocks clocks = Clocks.withVirtualClocks(4, 1_000_000, Long.MAX_VALUE, 100);
        List<Map<String, ClockLog>> logs = drive(clocks, 42);
        checkAgainstModel(clocks, logs);
    }

    /** Runs the sixteen workers on clocks c0..c7 of {@code clocks} (created here) and returns their logs. */
    static List<Map<String, ClockLog>> drive(Clocks clocks, long seed) throws Exception {
        for (int c = 0; c < CLOCKS; c++) {
            clocks.create("c" + c, 0);
        }
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Callable<Map<String, ClockLog>>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            workers.add(() -> {
                Random random = new Random(seed * 100 + thread);
                Map<String, ClockLog> byClock = new HashMap<>();
                start.await(30, TimeUnit.SECONDS);
                for (int n = 0; n < OPERATIONS_PER_THREAD; n++) {
                    String name = "c" + random.nextInt(CLOCKS);
                    TimerScheduler scheduler = clocks.scheduler(name);
                    ClockLog log = byClock.computeIfAbsent(name, k -> ClockLog.empty());
                    int choice = random.nextInt(20);
                    // ids name the clock, so a timer fired by another clock would show
                    String id = name + "-w" + thread + "-" + random.nextInt(n + 1);
                    try {
                        if (choice < 9) {
                            log.added().add(scheduler.add(name + "-w" + thread + "-" + n, random.nextInt(15),
                                    random.nextInt(3), null, Trace.NONE));
                        } else if (choice < 13) {
                            log.cancelled().add(scheduler.cancel(id, Precondition.NONE, Trace.NONE));
                        } else if (choice < 15) {
                            scheduler.edit(id, (long) random.nextInt(15), null, Precondition.NONE, Trace.NONE);
                        } else if (choice < 18) {
                            long by = random.nextInt(4);
                            log.advances().add(scheduler.advance(by, Trace.NONE));
                            log.advancedBy().add(by);
                        } else {
                            scheduler.firstN(5);
                            scheduler.status();
                        }
                    } catch (ProblemException refused) {
                        assertThat(refused.code()).isEqualTo(ErrorCode.TIMER_NOT_FOUND);
                    }
                }
                return byClock;
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Map<String, ClockLog>> logs = new ArrayList<>();
            for (Future<Map<String, ClockLog>> result : pool.invokeAll(workers)) {
                logs.add(result.get(60, TimeUnit.SECONDS));
            }
            return logs;
        } finally {
            pool.shutdownNow();
        }
    }

    static void checkAgainstModel(Clocks clocks, List<Map<String, ClockLog>> logs) {
        long totalPending = 0;
        for (int c = 0; c < CLOCKS; c++) {
            String name = "c" + c;
            TimerScheduler scheduler = clocks.scheduler(name);
            Map<Long, Timer> added = new HashMap<>();
            Set<Long> ended = new HashSet<>();
            long advancedBy = 0;
            for (Map<String, ClockLog> byClock : logs) {
                ClockLog log = byClock.getOrDefault(name, ClockLog.empty());
                for (Timer timer : log.added()) {
                    assertThat(added.put(timer.sequence(), timer)).as("sequence issued once").isNull();
                }
                advancedBy += log.advancedBy().stream().mapToLong(Long::longValue).sum();
            }
            for (Map<String, ClockLog> byClock : logs) {
                ClockLog log = byClock.getOrDefault(name, ClockLog.empty());
                for (Timer cancelled : log.cancelled()) {
                    assertThat(added).containsKey(cancelled.sequence());
                    assertThat(ended.add(cancelled.sequence())).as("ends once: " + cancelled).isTrue();
                }
                for (AdvanceResult advance : log.advances()) {
                    Timer previous = null;
                    for (Timer fired : advance.fired()) {
                        assertThat(fired.id()).startsWith(name + "-");
                        assertThat(fired.fireTime()).isLessThanOrEqualTo(advance.now());
                        assertThat(added).containsKey(fired.sequence());
                        assertThat(ended.add(fired.sequence())).as("ends once: " + fired).isTrue();
                        if (previous != null) {
                            assertThat(FiringOrder.compare(previous.fireTime(), previous.priority(),
                                    previous.sequence(), fired.fireTime(), fired.priority(), fired.sequence()))
                                    .isNegative();
                        }
                        previous = fired;
                    }
                }
            }
            QueueListing pending = scheduler.firstN(1_000_000);
            for (Timer timer : pending.timers()) {
                assertThat(added).containsKey(timer.sequence());
                assertThat(ended.add(timer.sequence())).as("pending and ended: " + timer).isTrue();
            }
            assertThat(ended).as(name + ": every added timer fired, was cancelled or is pending")
                    .hasSize(added.size());
            assertThat(scheduler.now()).as(name + ": the sum of its advances").isEqualTo(advancedBy);
            assertThat(scheduler.checkInvariants().ok()).isTrue();
            totalPending += pending.size();
        }
        assertThat(clocks.budget().timers()).isEqualTo(totalPending + clocks.defaultScheduler().status().size());
    }
}
