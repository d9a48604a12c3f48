package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The firing loop's alarm without a database: a change told while the loop looks is in its plan, one due sooner wakes
 * a sleep, one due later does not, and a stop ends a sleep. Planned sleeps are 10 minutes, so a sleep that ends within
 * the test's 30 s ended for the reason the test gives.
 */
class FiringAlarmTest {

    private static final long DB_NOW = 1_700_000_000_000L;
    private static final long TEN_MINUTES = 600_000;
    private static final Duration IN_TIME = Duration.ofSeconds(30);

    private final FiringAlarm alarm = new FiringAlarm();

    @Test
    void aChangeToldWhileTheLoopLooks_isInItsPlan() {
        alarm.lookStarts();
        alarm.dueAt(DB_NOW + 20);

        assertTimeoutPreemptively(IN_TIME, () -> alarm.sleep(DB_NOW, System.nanoTime(), DB_NOW + TEN_MINUTES));
    }

    @Test
    void aChangeDueSoonerThanThePlan_wakesTheSleep_andOneDueLater_doesNot() throws Exception {
        alarm.lookStarts();
        CompletableFuture<Void> sleeping = sleepingTenMinutes();

        alarm.dueAt(DB_NOW + TEN_MINUTES + 1);
        assertThat(alarm.plannedWake()).isEqualTo(DB_NOW + TEN_MINUTES);
        alarm.dueAt(DB_NOW + 1);

        sleeping.get(IN_TIME.toSeconds(), TimeUnit.SECONDS);
        assertThat(alarm.plannedWake()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void dueIn_isReckonedFromTheDatabasesNowAtTheLastLook() throws Exception {
        alarm.lookStarts();
        alarm.sleep(DB_NOW, System.nanoTime(), DB_NOW); // a look that found its wake-up passed
        alarm.lookStarts();
        CompletableFuture<Void> sleeping = sleepingTenMinutes();

        alarm.dueIn(50);

        assertThat(sleeping).as("woken: 50 ms after the database's now at the last look, not in ten minutes")
                .succeedsWithin(IN_TIME);
        assertThat(alarm.plannedWake()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void dueIn_toldDuringTheFirstLook_isInItsPlan() {
        alarm.lookStarts(); // the first look: no database now to reckon from yet
        alarm.dueIn(50);

        // it sleeps ten minutes if the change was dropped
        assertTimeoutPreemptively(IN_TIME, () -> alarm.sleep(DB_NOW, System.nanoTime(), DB_NOW + TEN_MINUTES));
    }

    @Test
    void stop_endsTheSleep_andEveryLaterOne() throws Exception {
        alarm.lookStarts();
        CompletableFuture<Void> sleeping = sleepingTenMinutes();

        alarm.stop();

        sleeping.get(IN_TIME.toSeconds(), TimeUnit.SECONDS);
        assertTimeoutPreemptively(IN_TIME, () -> alarm.sleep(DB_NOW, System.nanoTime(), DB_NOW + TEN_MINUTES));
        assertTimeoutPreemptively(IN_TIME, () -> alarm.pause(TimeUnit.MINUTES.toNanos(10)));
    }

    /** A look's sleep of ten minutes on another thread, once it is planned. */
    private CompletableFuture<Void> sleepingTenMinutes() throws InterruptedException {
        long lookNanos = System.nanoTime();
        CompletableFuture<Void> sleeping = CompletableFuture.runAsync(() -> {
            try {
                alarm.sleep(DB_NOW, lookNanos, DB_NOW + TEN_MINUTES);
            } catch (InterruptedException interrupted) {
                throw new IllegalStateException(interrupted);
            }
        });
        Counts.awaitAtLeast(() -> alarm.plannedWake() == DB_NOW + TEN_MINUTES ? 1 : 0, 1, "the sleep planned");
        return sleeping;
    }
}
