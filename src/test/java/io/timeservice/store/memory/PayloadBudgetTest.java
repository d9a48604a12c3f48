package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.SchedulerMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The byte budget of pending timers (issue 13, item 11): an add beyond it is refused before anything changes; cancel,
 * fire and reset give bytes back, edits do not change them, and recovery restores the count.
 */
class PayloadBudgetTest {

    private static final long BUDGET = 100;

    private final RecordingLog log = new RecordingLog();

    private static TimerScheduler scheduler(long capacityBytes) {
        return new TimerScheduler(new VirtualClock(0), 4, 1_000, capacityBytes, () -> 0L, SchedulerMetrics.NONE);
    }

    @Test
    void addBeyondTheBudget_isCapacityExceededNamingTheByteBudget_andChangesNothing() {
        TimerScheduler scheduler = scheduler(BUDGET);
        scheduler.attachLog(log);
        scheduler.add("a", 5, 0, "x".repeat(59), Trace.NONE);   // 60 bytes
        scheduler.add("b", 5, 0, "y".repeat(38), Trace.NONE);   // 39: 99 in all
        List<Mutation> records = log.records();
        List<Timer> pending = CoreTestSupport.pending(scheduler);

        assertThatThrownBy(() -> scheduler.add("c", 5, 0, "z", Trace.NONE))   // 2 bytes: one too many
                .isInstanceOf(ProblemException.class)
                .hasMessageContaining("hold 99 of the queue's 100 payload bytes")
                .hasMessageContaining("needs 2")
                .satisfies(e -> assertThat(((ProblemException) e).code()).isEqualTo(ErrorCode.CAPACITY_EXCEEDED));
        assertThat(scheduler.pendingBytes()).isEqualTo(99);
        assertThat(CoreTestSupport.pending(scheduler)).isEqualTo(pending);
        assertThat(log.records()).isEqualTo(records);

        assertThat(scheduler.add("c", 5, 0, null, Trace.NONE).id()).isEqualTo("c");   // 1 byte: exactly the budget
        assertThat(scheduler.pendingBytes()).isEqualTo(BUDGET);
    }

    @Test
    void cancelFireAndResetGiveBytesBack_editsKeepThem() {
        TimerScheduler scheduler = scheduler(BUDGET);
        scheduler.add("a", 5, 0, "1234", Trace.NONE);     // 5
        scheduler.add("bb", 10, 0, "12345", Trace.NONE);  // 7
        scheduler.add("ccc", 20, 0, null, Trace.NONE);    // 3
        assertThat(scheduler.pendingBytes()).isEqualTo(15);
        scheduler.edit("a", 50L, 3, Precondition.NONE, Trace.NONE);
        assertThat(scheduler.pendingBytes()).isEqualTo(15);
        scheduler.cancel("bb", Precondition.NONE, Trace.NONE);
        assertThat(scheduler.pendingBytes()).isEqualTo(8);
        scheduler.advance(20, Trace.NONE);                 // fires ccc
        assertThat(scheduler.pendingBytes()).isEqualTo(5);
        scheduler.reset(new VirtualClock(0));
        assertThat(scheduler.pendingBytes()).isZero();
        scheduler.add("full", 1, 0, "p".repeat((int) BUDGET - 4), Trace.NONE);
        assertThat(scheduler.pendingBytes()).isEqualTo(BUDGET);
    }

    @Test
    void recovery_restoresTheBudgetFromSnapshotAndJournal() {
        TimerScheduler scheduler = scheduler(BUDGET);
        scheduler.attachLog(log);
        scheduler.add("a", 5, 0, "1234", Trace.NONE);
        scheduler.add("bb", 10, 0, "12345", Trace.NONE);
        scheduler.add("ccc", 20, 0, "x", Trace.NONE);
        scheduler.cancel("bb", Precondition.NONE, Trace.NONE);
        scheduler.advance(5, Trace.NONE);

        TimerScheduler fromJournal = scheduler(BUDGET);
        fromJournal.recover(null, log.records());
        assertThat(fromJournal.pendingBytes()).isEqualTo(scheduler.pendingBytes()).isEqualTo(4);

        List<Mutation.Added> snapshot = new ArrayList<>();
        for (Timer timer : CoreTestSupport.pending(scheduler)) {
            snapshot.add(new Mutation.Added(timer, 0));
        }
        TimerScheduler fromSnapshot = scheduler(BUDGET);
        fromSnapshot.recover(new RecoveredSnapshot(scheduler.now(), 3, snapshot),
                List.of(new Mutation.Added(new Timer("dd", 30, 0, 4, 1, 5, "12"), 0)));
        assertThat(fromSnapshot.pendingBytes()).isEqualTo(8);
        assertThatThrownBy(() -> fromSnapshot.add("e", 1, 0, "p".repeat(92), Trace.NONE))
                .extracting(e -> ((ProblemException) e).code()).isEqualTo(ErrorCode.CAPACITY_EXCEEDED);
    }

    /** Random adds, cancels, edits and advances against a map of what is pending; the count always agrees. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42})
    void randomOperations_keepTheCountEqualToThePendingTimers(long seed) {
        Random random = new Random(seed);
        long budget = 2_000;
        TimerScheduler scheduler = scheduler(budget);
        scheduler.attachLog(log);
        Map<String, Long> model = new HashMap<>();   // id -> bytes
        for (int step = 0; step < 3_000; step++) {
            String id = "t" + random.nextInt(80);
            String context = "seed " + seed + ", step " + step;
            switch (random.nextInt(4)) {
                case 0 -> {
                    String payload = random.nextBoolean() ? null : "p".repeat(random.nextInt(120));
                    long bytes = Limits.bytesOf(id, payload);
                    long used = model.values().stream().mapToLong(Long::longValue).sum();
                    boolean fits = !model.containsKey(id) && used + bytes <= budget;
                    try {
                        scheduler.add(id, random.nextInt(50), 0, payload, Trace.NONE);
                        assertThat(fits).as(context).isTrue();
                        model.put(id, bytes);
                    } catch (ProblemException refused) {
                        assertThat(fits).as(context + ": " + refused.getMessage()).isFalse();
                    }
                }
                case 1 -> {
                    if (model.remove(id) != null) {
                        scheduler.cancel(id, Precondition.NONE, Trace.NONE);
                    }
                }
                case 2 -> {
                    if (model.containsKey(id)) {
                        scheduler.edit(id, (long) random.nextInt(50), null, Precondition.NONE, Trace.NONE);
                    }
                }
                default -> {
                    for (Timer fired : scheduler.advance(random.nextInt(10), Trace.NONE).fired()) {
                        model.remove(fired.id());
                    }
                }
            }
            assertThat(scheduler.pendingBytes()).as(context)
                    .isEqualTo(model.values().stream().mapToLong(Long::longValue).sum());
        }
        TimerScheduler recovered = scheduler(budget);
        recovered.recover(null, log.records());
        assertThat(recovered.pendingBytes()).isEqualTo(scheduler.pendingBytes());
    }
}
