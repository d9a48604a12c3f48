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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Four threads add, cancel, edit, advance and read through one scheduler at once, started together by a barrier.
 * Afterwards every successfully added timer is exactly one of fired, cancelled or still pending; nothing fired
 * twice or was both fired and cancelled; each advance fired in firing order; the invariants hold.
 */
class SchedulerConcurrencyTest {

    private static final int THREADS = 4;
    private static final int OPERATIONS_PER_THREAD = 2500;

    /** What one worker saw succeed. */
    private record WorkerLog(List<Timer> added, List<Timer> cancelled, List<AdvanceResult> advances) {
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void concurrentAddCancelEditAdvance_everyTimerEndsExactlyOnce(int arity) throws Exception {
        TimerScheduler scheduler = TimerScheduler.withVirtualClock(arity, 1_000_000);
        CyclicBarrier start = new CyclicBarrier(THREADS);
        // Ids added so far by any thread, so that cancels and edits race with fires and with each other.
        AtomicReferenceArray<String> addedIds = new AtomicReferenceArray<>(THREADS * OPERATIONS_PER_THREAD);
        AtomicInteger addedCount = new AtomicInteger();

        List<Callable<WorkerLog>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            workers.add(() -> {
                Random random = new Random(1000L * arity + thread);
                WorkerLog log = new WorkerLog(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
                start.await(30, TimeUnit.SECONDS);
                for (int n = 0; n < OPERATIONS_PER_THREAD; n++) {
                    int choice = random.nextInt(20);
                    if (choice < 8) {
                        Timer added = scheduler.add("w" + thread + "-" + n, random.nextInt(12), random.nextInt(3),
                                null, Trace.NONE);
                        log.added().add(added);
                        addedIds.set(addedCount.getAndIncrement(), added.id());
                    } else if (choice < 12) {
                        String id = randomAddedId(random, addedIds, addedCount);
                        if (id != null) {
                            tolerateNotFound(() -> log.cancelled().add(scheduler.cancel(id, Precondition.NONE,
                                    Trace.NONE)));
                        }
                    } else if (choice < 15) {
                        String id = randomAddedId(random, addedIds, addedCount);
                        if (id != null) {
                            Long delay = random.nextBoolean() ? (long) random.nextInt(12) : null;
                            Integer priority = delay == null || random.nextBoolean() ? random.nextInt(3) : null;
                            tolerateNotFound(() -> scheduler.edit(id, delay, priority, Precondition.NONE, Trace.NONE));
                        }
                    } else if (choice < 18) {
                        log.advances().add(scheduler.advance(random.nextInt(3), Trace.NONE));
                    } else {
                        List<Timer> listed = scheduler.firstN(8).timers();
                        for (int i = 1; i < listed.size(); i++) {
                            assertThat(Timer.compareFiringOrder(listed.get(i - 1), listed.get(i))).isNegative();
                        }
                    }
                }
                return log;
            });
        }

        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<WorkerLog> logs = new ArrayList<>();
        try {
            for (Future<WorkerLog> future : pool.invokeAll(workers)) {
                logs.add(future.get(60, TimeUnit.SECONDS)); // rethrows a worker's assertion failure
            }
        } finally {
            pool.shutdownNow();
        }

        InvariantReport report = scheduler.checkInvariants();
        assertThat(report.ok()).as("%s", report.firstFailure()).isTrue();

        Map<String, Timer> added = new HashMap<>();
        Set<Long> sequences = new HashSet<>();
        List<String> fired = new ArrayList<>();
        List<String> cancelled = new ArrayList<>();
        for (WorkerLog log : logs) {
            for (Timer timer : log.added()) {
                assertThat(added.put(timer.id(), timer)).as("id %s added twice", timer.id()).isNull();
                assertThat(sequences.add(timer.sequence())).as("sequence %d handed out twice", timer.sequence())
                        .isTrue();
            }
            log.cancelled().forEach(timer -> cancelled.add(timer.id()));
            for (AdvanceResult advance : log.advances()) {
                List<Timer> batch = advance.fired();
                for (int i = 0; i < batch.size(); i++) {
                    assertThat(batch.get(i).fireTime()).isLessThanOrEqualTo(advance.now());
                    if (i > 0) {
                        assertThat(Timer.compareFiringOrder(batch.get(i - 1), batch.get(i)))
                                .as("advance to %d fired out of order: %s", advance.now(), batch).isNegative();
                    }
                    fired.add(batch.get(i).id());
                }
            }
        }
        List<String> pending = scheduler.firstN(Integer.MAX_VALUE).timers().stream().map(Timer::id).toList();

        assertThat(fired).as("fired twice").doesNotHaveDuplicates();
        assertThat(cancelled).as("cancelled twice").doesNotHaveDuplicates();
        assertThat(fired).as("both fired and cancelled").doesNotContainAnyElementsOf(cancelled);
        assertThat(pending).doesNotContainAnyElementsOf(fired).doesNotContainAnyElementsOf(cancelled);
        List<String> accountedFor = new ArrayList<>(fired);
        accountedFor.addAll(cancelled);
        accountedFor.addAll(pending);
        assertThat(accountedFor).as("every added timer is fired, cancelled or pending, exactly once")
                .containsExactlyInAnyOrderElementsOf(added.keySet());
        assertThat(fired).as("the run exercised fires").isNotEmpty();
        assertThat(cancelled).as("the run exercised cancels").isNotEmpty();

        // Draining fires exactly the pending rest.
        List<String> drained = scheduler.advance(Limits.MAX_DELAY, Trace.NONE).fired().stream()
                .map(Timer::id).toList();
        assertThat(drained).containsExactlyElementsOf(pending);
        assertThat(scheduler.status().size()).isZero();
    }

    private static String randomAddedId(Random random, AtomicReferenceArray<String> ids, AtomicInteger count) {
        int visible = count.get();
        return visible == 0 ? null : ids.get(random.nextInt(visible)); // may be null while being published
    }

    /** Runs {@code call}; a concurrent fire or cancel may have taken the timer first, which is fine. */
    private static void tolerateNotFound(Runnable call) {
        try {
            call.run();
        } catch (ProblemException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.TIMER_NOT_FOUND);
        }
    }
}
