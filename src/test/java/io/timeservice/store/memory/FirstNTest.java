package io.timeservice.store.memory;

import static io.timeservice.store.memory.CoreTestSupport.layout;
import static io.timeservice.store.memory.CoreTestSupport.scheduler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** firstN lists the first N pending timers in firing order, read-only, compared against sorting a copy. */
class FirstNTest {

    /** A copy of every pending timer, gathered by id and sorted here, independently of firstN. */
    private static List<Timer> sortedCopy(TimerScheduler scheduler) {
        List<Timer> copy = new ArrayList<>();
        for (String id : layout(scheduler)) {
            copy.add(scheduler.get(id));
        }
        copy.sort(Comparator.comparingLong(Timer::fireTime).thenComparingInt(Timer::priority)
                .thenComparingLong(Timer::sequence));
        return copy;
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void firstN_everyLimit_returnsPrefixOfSortedCopyWithoutMutating(int arity) {
        TimerScheduler scheduler = scheduler(arity);
        Random random = new Random(7 * arity);
        for (int i = 0; i < 120; i++) {
            scheduler.add("n" + i, random.nextInt(10), random.nextInt(3), null, Trace.NONE);
        }
        for (int i = 0; i < 30; i++) {
            scheduler.edit("n" + random.nextInt(120), (long) random.nextInt(10), random.nextInt(3), Precondition.NONE,
                    Trace.NONE);
        }
        scheduler.advance(2, Trace.NONE);
        List<Timer> expected = sortedCopy(scheduler);
        List<String> layoutBefore = layout(scheduler);
        QueueStatus statusBefore = scheduler.status();

        for (int limit = 1; limit <= expected.size() + 5; limit++) {
            QueueListing listing = scheduler.firstN(limit);

            assertThat(listing.timers()).as("firstN(%d)", limit)
                    .isEqualTo(expected.subList(0, Math.min(limit, expected.size())));
            assertThat(listing.size()).isEqualTo(expected.size());
            assertThat(listing.now()).isEqualTo(2);
        }
        assertThat(layout(scheduler)).isEqualTo(layoutBefore);
        assertThat(scheduler.status()).isEqualTo(statusBefore);
        assertThat(scheduler.checkInvariants().ok()).isTrue();
        assertThat(scheduler.advance(20, Trace.NONE).fired()).isEqualTo(expected);
    }

    @Test
    void firstN_largerThanSize_returnsEverythingInFiringOrder() {
        TimerScheduler scheduler = scheduler(2);
        scheduler.add("c", 3, 0, null, Trace.NONE);
        scheduler.add("a", 1, 0, null, Trace.NONE);
        scheduler.add("b", 1, 1, null, Trace.NONE);

        QueueListing listing = scheduler.firstN(1000);

        assertThat(listing.timers()).extracting(Timer::id).containsExactly("a", "b", "c");
        assertThat(scheduler.firstN(Integer.MAX_VALUE).timers()).hasSize(3);
    }

    @Test
    void firstN_onEmptyQueue_returnsNothing() {
        QueueListing listing = scheduler(4).firstN(10);

        assertThat(listing.timers()).isEmpty();
        assertThat(listing.size()).isZero();
    }

    @Test
    void firstN_doesNotFollowArrayOrder() {
        // Array order of a binary heap over fireTimes 1..7 inserted as 1,5,2,6,7,3,4 is [1,5,2,6,7,3,4];
        // firing order is 1..7. A listing that copied the first cells would return 1,5,2.
        TimerScheduler scheduler = scheduler(2);
        for (int fireTime : new int[] {1, 5, 2, 6, 7, 3, 4}) {
            scheduler.add("f" + fireTime, fireTime, 0, null, Trace.NONE);
        }
        assertThat(layout(scheduler).subList(0, 3)).containsExactly("f1", "f5", "f2");

        assertThat(scheduler.firstN(3).timers()).extracting(Timer::id).containsExactly("f1", "f2", "f3");
    }

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void firstN_limitBelowOne_refusedAsInvalidLimit(int limit) {
        TimerScheduler scheduler = scheduler(2);
        scheduler.add("a", 1, 0, null, Trace.NONE);

        ProblemException refused = catchThrowableOfType(ProblemException.class, () -> scheduler.firstN(limit));

        assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_LIMIT);
        assertThat(refused.getMessage()).contains(String.valueOf(limit));
    }
}
