package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class AttemptDeadlinesTest {

    private long now = 1_000_000_000L;
    private final List<Runnable> sweepsDue = new ArrayList<>();
    private final AttemptDeadlines deadlines = new AttemptDeadlines((millis, sweep) -> sweepsDue.add(sweep),
            () -> now);
    private final List<String> expired = new ArrayList<>();

    private void advanceMillis(long millis) {
        now += TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** Runs the one sweep armed, as the timer thread would. */
    private void tick() {
        assertThat(sweepsDue).hasSize(1);
        Runnable sweep = sweepsDue.remove(0);
        sweep.run();
    }

    @Test
    void anAttempt_expiresAtItsTimeout_notBefore() {
        deadlines.track(100, () -> expired.add("a"));

        advanceMillis(99);
        tick();
        assertThat(expired).isEmpty();

        advanceMillis(1);
        tick();
        assertThat(expired).containsExactly("a");
        assertThat(sweepsDue).as("nothing tracked: no further sweep").isEmpty();
        assertThat(deadlines.held()).isZero();
    }

    @Test
    void anAnsweredAttempt_neverExpires_andIsDroppedByTheNextSweep() {
        AttemptDeadlines.Entry answered = deadlines.track(100, () -> expired.add("answered"));
        deadlines.track(100, () -> expired.add("late"));

        answered.cancel();
        advanceMillis(1);
        tick();
        assertThat(deadlines.held()).as("the answered head left; the pending one stays").isEqualTo(1);

        advanceMillis(100);
        tick();
        assertThat(expired).containsExactly("late");
    }

    @Test
    void timeoutsOfEveryLength_expireEachAtItsOwn_andOneSweepIsArmedAtATime() {
        deadlines.track(5_000, () -> expired.add("slow"));
        deadlines.track(100, () -> expired.add("fast1"));
        deadlines.track(100, () -> expired.add("fast2"));
        assertThat(sweepsDue).hasSize(1);

        advanceMillis(100);
        tick();
        assertThat(expired).containsExactly("fast1", "fast2");

        advanceMillis(4_900);
        tick();
        assertThat(expired).containsExactly("fast1", "fast2", "slow");
        assertThat(sweepsDue).isEmpty();
    }

    @Test
    void aTrackAfterTheLastSweep_armsAnotherOne() {
        deadlines.track(100, () -> expired.add("a"));
        advanceMillis(100);
        tick();
        assertThat(sweepsDue).isEmpty();

        deadlines.track(100, () -> expired.add("b"));

        assertThat(sweepsDue).hasSize(1);
        advanceMillis(100);
        tick();
        assertThat(expired).containsExactly("a", "b");
    }

    @Test
    void anExpiryThatThrows_doesNotStopTheOthers() {
        deadlines.track(100, () -> {
            throw new IllegalStateException("boom");
        });
        deadlines.track(100, () -> expired.add("next"));

        advanceMillis(100);
        tick();

        assertThat(expired).containsExactly("next");
    }

    @Test
    void nearTheEndOfTheNanoClock_deadlinesCompareByDifference() {
        now = Long.MAX_VALUE - TimeUnit.MILLISECONDS.toNanos(50);
        deadlines.track(100, () -> expired.add("wraps"));

        advanceMillis(99);
        tick();
        assertThat(expired).isEmpty();
        advanceMillis(1);
        tick();
        assertThat(expired).containsExactly("wraps");
    }
}
