package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockChange;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.RetryPolicy;
import io.timeservice.store.StoreMetrics;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 47 on the PostgreSQL store: a pause made on one instance holds deliveries back on another at once and on an
 * instance opened after it (a restart), and a resume on one instance wakes a long poll waiting on the other.
 */
class PauseTwoInstancesTest {

    private static final String CLOCK = "paused";

    private TestDatabase database;
    private PostgresStore first;
    private PostgresStore second;

    @BeforeEach
    void twoInstancesAndAQueueClock() {
        database = TestDatabase.create(PauseTwoInstancesTest.class, 8);
        first = open();
        second = open();
        first.clocks().create(CLOCK, 0, new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                RetryPolicy.DEFAULT));
        second.timerChanges().batch(CLOCK, List.of(BatchOp.Add.keyed("b", Due.after(2), 0, null, null),
                BatchOp.Add.keyed("a", Due.after(1), 0, null, null)));
    }

    private PostgresStore open() {
        return PostgresStore.open(database.dataSource(), 100_000, 100_000_000, 10, ClockSettings.Mode.VIRTUAL,
                StoreMetrics.NONE, LockWaits.PATIENT);
    }

    @AfterEach
    void close() {
        first.close();
        second.close();
        database.close();
    }

    @Test
    void aPauseOnOneInstance_holdsBackOnTheOther_andOnOneOpenedAfterIt() {
        first.clocks().change(CLOCK, ClockChange.pause(true));
        second.clockFiring().advance(CLOCK, 10L, null, Integer.MAX_VALUE);

        assertThat(second.deliveries().claim(CLOCK, 10, 1_000)).isEmpty();
        PostgresStore restarted = open();
        try {
            assertThat(restarted.clocks().get(CLOCK).settings().paused()).isTrue();
            assertThat(restarted.deliveries().claim(CLOCK, 10, 1_000)).isEmpty();
            restarted.clocks().change(CLOCK, ClockChange.pause(false));
        } finally {
            restarted.close();
        }
        assertThat(first.deliveries().claim(CLOCK, 10, 1_000)).extracting(ClaimedDelivery::id)
                .containsExactly("a", "b");
    }

    @Test
    void aResumeOnOneInstance_wakesALongPollOnTheOther() throws Exception {
        first.startWakeups(Duration.ofSeconds(60)); // a slow poll far beyond the wait: only the notification wakes it
        first.clocks().change(CLOCK, ClockChange.pause(true));
        first.clockFiring().advance(CLOCK, 10L, null, Integer.MAX_VALUE);
        assertThat(first.deliveries().claim(CLOCK, 10, 1_000)).isEmpty();

        CompletableFuture<List<ClaimedDelivery>> poll = new CompletableFuture<>();
        Thread poller = new Thread(() -> poll.complete(first.deliveries().claim(CLOCK, 10, 1_000, 30_000)));
        poller.start();
        // its first look found nothing: it waits for a notification (a timed wait), not in a statement
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> poller.getState() == Thread.State.TIMED_WAITING);
        second.clocks().change(CLOCK, ClockChange.pause(false));

        assertThat(poll.get(25, TimeUnit.SECONDS)).extracting(ClaimedDelivery::id).containsExactly("a", "b");
    }
}
