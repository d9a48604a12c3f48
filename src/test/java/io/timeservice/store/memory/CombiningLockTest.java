package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class CombiningLockTest {

    private final CombiningLock lock = new CombiningLock();
    /** Deliberately not atomic: only mutual exclusion keeps it right. */
    private long counter;

    @Test
    void everyActionSeesItsOwnState_underContention() throws Exception {
        int threads = 8;
        int callsEach = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    List<Long> seen = new ArrayList<>(callsEach);
                    for (int i = 0; i < callsEach; i++) {
                        seen.add(lock.call(() -> ++counter));
                    }
                    return seen;
                }));
            }
            Set<Long> all = new HashSet<>();
            for (Future<List<Long>> result : results) {
                List<Long> seen = result.get(60, TimeUnit.SECONDS);
                assertThat(seen).isSorted();   // one thread's calls run in its program order
                all.addAll(seen);
            }
            long total = (long) threads * callsEach;
            assertThat(counter).isEqualTo(total);
            assertThat(all).hasSize((int) total);   // no two actions saw the same state
            assertThat(Collections.min(all)).isEqualTo(1);
            assertThat(Collections.max(all)).isEqualTo(total);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anActionsExceptionReachesTheThreadThatSubmittedIt() throws Exception {
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String tag = "thread-" + t;
                results.add(pool.submit(() -> {
                    int own = 0;
                    for (int i = 0; i < 5_000; i++) {
                        String expected = tag + "/" + i;
                        try {
                            lock.call(() -> {
                                counter++;
                                throw new ProblemException(ErrorCode.INVALID_REQUEST, expected);
                            });
                        } catch (ProblemException refused) {
                            if (refused.getMessage().equals(expected)) {
                                own++;
                            }
                        }
                    }
                    return own;
                }));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(5_000);
            }
            assertThat(counter).isEqualTo(threads * 5_000L);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void whileOneThreadHoldsTheLock_queuedActionsRunInArrivalOrder_onTheHoldersThread() throws Exception {
        int waiters = CombiningLock.MAX_SERVED_PER_HOLD + 4;   // more than one holder serves at once
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> order = new ArrayList<>();
        List<Thread> ranOn = new ArrayList<>();
        Thread holder = new Thread(() -> lock.run(() -> {
            holding.countDown();
            await(release);
        }), "holder");
        holder.start();
        holding.await();

        List<Thread> threads = new ArrayList<>();
        List<Integer> answers = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < waiters; i++) {
            int arrival = i;
            Thread waiter = new Thread(() -> answers.add(lock.call(() -> {
                order.add(arrival);
                ranOn.add(Thread.currentThread());
                return arrival;
            })), "waiter-" + i);
            threads.add(waiter);
            waiter.start();
            int queued = i + 1;   // the next one starts only after this one has queued
            Awaitility.await("waiter " + i + " queued").atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(1)).until(() -> lock.queued() >= queued);
        }
        release.countDown();
        holder.join(60_000);
        for (Thread waiter : threads) {
            waiter.join(60_000);
            assertThat(waiter.isAlive()).as(waiter.getName() + " finished").isFalse();
        }

        assertThat(order).hasSize(waiters);
        for (int i = 0; i < waiters; i++) {
            assertThat(order.get(i)).isEqualTo(i);
        }
        assertThat(answers).containsExactlyInAnyOrderElementsOf(order);
        // The holder served the first batch itself instead of handing the lock to each waiter in turn.
        assertThat(ranOn.subList(0, CombiningLock.MAX_SERVED_PER_HOLD)).allMatch(thread -> thread == holder);
        assertThat(lock.queued()).isZero();
    }

    @Test
    void aFailingActionLeavesTheLockUsable() {
        assertThatThrownBy(() -> lock.run(() -> {
            throw new IllegalStateException("boom");
        })).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        assertThat(lock.call(() -> 42)).isEqualTo(42);
    }

    /**
     * An interrupted waiter used to spin: {@code LockSupport.park} returns at once while the interrupt status is
     * set, so every turn of the wait loop parked in vain. The parker hook records the status at every park.
     */
    @Test
    void anInterruptedWaiter_parksWithItsInterruptCleared_andGetsItBackWithItsResult() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch waiterParking = new CountDownLatch(1);
        List<Boolean> interruptedAtPark = Collections.synchronizedList(new ArrayList<>());
        CombiningLock parkRecording = new CombiningLock(blocker -> {
            interruptedAtPark.add(Thread.currentThread().isInterrupted());
            waiterParking.countDown();
            LockSupport.park(blocker);
        });
        Thread holder = new Thread(() -> parkRecording.run(() -> {
            holding.countDown();
            await(waiterParking); // keeps the lock until the waiter has reached its park
        }), "holder");
        holder.start();
        holding.await();

        AtomicReference<Integer> result = new AtomicReference<>();
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            Thread.currentThread().interrupt();
            result.set(parkRecording.call(() -> 7));
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        }, "interrupted-waiter");
        waiter.start();
        waiter.join(60_000);
        holder.join(60_000);

        assertThat(waiter.isAlive()).isFalse();
        assertThat(interruptedAtPark).as("interrupt status at each park").isNotEmpty().containsOnly(false);
        assertThat(result).hasValue(7);
        assertThat(interruptedAfter).as("interrupt restored").isTrue();
    }

    @Test
    void anInterruptedCaller_runsActionsWithoutTheInterrupt_andGetsItBack() {
        Thread.currentThread().interrupt();
        try {
            boolean seenByAction = lock.call(() -> Thread.currentThread().isInterrupted());

            assertThat(seenByAction).as("an action may be another thread's: the interrupt is not for it").isFalse();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
