package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.SchedulerMetrics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The idle TTL on a fake wall clock: the sweep is called directly, never waited for. */
class ClocksIdleTtlTest {

    private static final Duration TTL = Duration.ofSeconds(60);

    private final AtomicLong wall = new AtomicLong(1_000);
    private final RecordingLog journal = new RecordingLog();
    private Clocks clocks;

    @BeforeEach
    void clocksOnAFakeWallClock() {
        clocks = new Clocks((clock, budget) -> new TimerScheduler(clock, 4, budget, wall::get, SchedulerMetrics.NONE),
                new PendingBudget(100, Long.MAX_VALUE), 10, wall::get);
        clocks.attachLog(journal);
    }

    @Test
    void off_byDefault_noClockCarriesADeadlineAndNoneIsDeleted() {
        Clocks.Clock ci = clocks.create("ci", 0).clock();
        wall.addAndGet(Duration.ofDays(3650).toMillis());

        assertThat(clocks.deletesAt(ci)).isNull();
        assertThat(clocks.deleteIdle()).isZero();
        assertThat(clocks.get("ci")).isSameAs(ci);
    }

    @Test
    void idleClock_isDeletedWithItsTimersAtItsDeadline_throughTheJournaledDelete() {
        clocks.deleteIdleAfter(TTL);
        Clocks.Clock ci = clocks.create("ci", 0).clock();
        ci.scheduler().add("t", 5, 0, null, Trace.NONE);
        long deadline = 1_000 + TTL.toMillis();
        assertThat(clocks.deletesAt(ci)).isEqualTo(deadline);

        wall.set(deadline - 1);
        assertThat(clocks.deleteIdle()).isZero();
        assertThat(clocks.count()).isEqualTo(2);

        wall.set(deadline);
        assertThat(clocks.deleteIdle()).isEqualTo(1);
        assertThat(clocks.count()).isEqualTo(1);
        assertThat(clocks.budget().timers()).isZero();
        assertThatThrownBy(() -> clocks.get("ci")).isInstanceOfSatisfying(ProblemException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
        assertThat(journal.records()).last()
                .isEqualTo(new Mutation.OnClock(ci.number(), new Mutation.ClockDeleted()));
    }

    @Test
    void everyCallThatAddressesAClock_postponesItsDeletion_andOnlyIts() {
        clocks.deleteIdleAfter(TTL);
        clocks.create("read", 0);
        clocks.create("put-again", 0);
        Clocks.Clock untouched = clocks.create("untouched", 0).clock();

        wall.set(31_000);
        clocks.scheduler("read").status();    // a read under /clocks/read/
        clocks.create("put-again", 0);        // the idempotent PUT
        assertThat(clocks.deletesAt(untouched)).isEqualTo(61_000);
        wall.set(61_000);
        clocks.list(100, null);               // listing addresses no clock

        assertThat(clocks.deleteIdle()).isEqualTo(1);
        assertThat(clocks.all()).extracting(Clocks.Clock::name)
                .containsExactly("default", "put-again", "read");
        assertThat(clocks.deletesAt(clocks.get("read"))).isEqualTo(61_000 + TTL.toMillis());
    }

    @Test
    void defaultClock_hasNoDeadline_andIsNeverDeleted() {
        clocks.deleteIdleAfter(TTL);
        wall.addAndGet(Duration.ofDays(3650).toMillis());

        assertThat(clocks.deletesAt(clocks.get(Limits.DEFAULT_CLOCK))).isNull();
        assertThat(clocks.deleteIdle()).isZero();
        assertThat(clocks.count()).isEqualTo(1);
    }

    @Test
    void aClockDeletedForIdleness_canBeCreatedAgain_andItsOldEntityTagsMatchNothing() {
        clocks.deleteIdleAfter(TTL);
        Timer old = clocks.create("ci", 0).clock().scheduler().add("t", 5, 0, null, Trace.NONE);
        wall.addAndGet(TTL.toMillis());
        clocks.deleteIdle();

        Timer again = clocks.create("ci", 0).clock().scheduler().add("t", 5, 0, null, Trace.NONE);
        assertThat(again.sequence()).isGreaterThan(old.sequence());
    }

    @Test
    void negativeTtl_isRefusedWithTheValue() {
        assertThatThrownBy(() -> clocks.deleteIdleAfter(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }
}
