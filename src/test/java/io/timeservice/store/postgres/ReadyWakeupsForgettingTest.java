package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, item 15: the wake-ups of one instance remember the clocks waited on, not every clock ever notified, and
 * forgetting a clock never costs a claimer a wake-up. No database: the listener is not started, the tests wake
 * clocks as notifications would.
 */
class ReadyWakeupsForgettingTest {

    private static final int CLOCKS = 100_000;

    private final ReadyWakeups wakeups = new ReadyWakeups(null, Duration.ofMinutes(10));
    private final ExecutorService claimers = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        claimers.shutdownNow();
    }

    @Test
    void wakeUpsOfClocksNobodyWaitsOn_areForgotten_soTheMemoryStaysBounded() {
        for (int i = 0; i < CLOCKS; i++) {
            wakeups.wake("clock-" + i);
        }

        assertThat(wakeups.remembered()).isLessThanOrEqualTo(ReadyWakeups.MIN_REMEMBERED + 1);
    }

    @Test
    void aClaimerThatReadItsGenerationBeforeItsClockWasForgotten_stillSeesTheNextWakeUp() {
        wakeups.wake("a");
        long seen = wakeups.generation("a"); // read before its claim found nothing
        for (int i = 0; i < CLOCKS; i++) { // meanwhile "a" is forgotten
            wakeups.wake("other-" + i);
        }
        assertThat(wakeups.generation("a")).as("forgetting never moves a generation back").isGreaterThanOrEqualTo(seen);
        long afterForgetting = wakeups.generation("a");

        wakeups.wake("a"); // counting per clock again from nothing would give "a" the generation the claimer read

        assertThat(wakeups.generation("a")).isGreaterThan(afterForgetting).isNotEqualTo(seen);
    }

    @Test
    void aClockWithAWaiter_isRemembered_andForgettingOthersDoesNotEndItsWait() throws Exception {
        long seen = wakeups.generation("w");
        Future<?> waiter = claimers.submit(() -> {
            wakeups.awaitChange("w", seen, TimeUnit.MINUTES.toNanos(10));
            return null;
        });
        Counts.awaitAtLeast(wakeups::waiting, 1, "the claimer waiting");

        for (int i = 0; i < CLOCKS; i++) {
            wakeups.wake("other-" + i);
        }

        assertThat(wakeups.generation("w")).as("the waiter's generation is untouched").isEqualTo(seen);
        wakeups.wake("w");
        waiter.get(1, TimeUnit.MINUTES);
        assertThat(wakeups.waiting()).isZero();
    }
}
