package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.Precondition;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.time.VirtualClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link QueueStatus#oldestCreatedAt()} follows creation order (not firing order) through cancels of the oldest,
 * a middle and the newest timer, through edits and through fires.
 */
class OldestPendingTest {

    /**
     * Wall clock that the test moves: one second per virtual tick from 1,000,000 ms, so both creation times can be
     * checked (the heap keeps wall-clock creation times in whole seconds).
     */
    private final AtomicLong wall = new AtomicLong(1_000_000);

    private MemoryClock schedulerWithWallClock(int arity) {
        return new MemoryClock(new VirtualClock(0), arity, 1000, wall::get, StoreMetrics.NONE);
    }

    private void advance(MemoryClock scheduler, long by) {
        scheduler.advance(by, Trace.NONE);
        wall.addAndGet(1000 * by);
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void oldestCreatedAt_followsCreationOrderThroughCancelsOfOldestMiddleAndNewest(int arity) {
        MemoryClock scheduler = schedulerWithWallClock(arity);
        assertThat(scheduler.status().oldestCreatedAt()).isNull();
        // Created at 0, 1, 2, 3, 4; the later ones fire earlier, so firing order and age disagree.
        for (int i = 0; i < 5; i++) {
            scheduler.add("c" + i, 1000 - 10L * i, 0, null, Trace.NONE);
            advance(scheduler, 1);
        }
        assertOldest(scheduler, 0);

        scheduler.cancel("c2", Precondition.NONE, Trace.NONE); // middle
        assertOldest(scheduler, 0);
        scheduler.cancel("c0", Precondition.NONE, Trace.NONE); // oldest
        assertOldest(scheduler, 1);
        scheduler.cancel("c4", Precondition.NONE, Trace.NONE); // newest
        assertOldest(scheduler, 1);
        scheduler.edit("c1", 5000L, 0, Precondition.NONE, Trace.NONE); // an edit does not make a timer younger
        assertOldest(scheduler, 1);
        scheduler.cancel("c1", Precondition.NONE, Trace.NONE);
        assertOldest(scheduler, 3);
        scheduler.cancel("c3", Precondition.NONE, Trace.NONE);
        assertThat(scheduler.status().oldestCreatedAt()).isNull();
        assertThat(scheduler.status().oldestCreatedAtWallMillis()).isNull();
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void oldestCreatedAt_movesOnWhenTheOldestFires(int arity) {
        MemoryClock scheduler = schedulerWithWallClock(arity);
        scheduler.add("old-fires-at-3", 3, 0, null, Trace.NONE);
        advance(scheduler, 1);
        scheduler.add("mid-fires-at-100", 99, 0, null, Trace.NONE);
        advance(scheduler, 1);
        scheduler.add("new-fires-at-4", 2, 0, null, Trace.NONE);
        assertOldest(scheduler, 0);

        advance(scheduler, 1); // now 3: the oldest fires
        assertOldest(scheduler, 1);
        advance(scheduler, 1); // now 4: the newest fires, the middle one stays oldest
        assertOldest(scheduler, 1);
        advance(scheduler, 96);
        assertThat(scheduler.status().oldestCreatedAt()).isNull();
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void oldestCreatedAt_matchesMinimumCreationTimeThroughRandomChurn(int arity) {
        MemoryClock scheduler = schedulerWithWallClock(arity);
        Random random = new Random(42 + arity);
        Map<String, Long> createdAt = new LinkedHashMap<>();
        for (int step = 0; step < 1500; step++) {
            int choice = random.nextInt(10);
            if (choice < 5) {
                String id = "r" + step;
                scheduler.add(id, random.nextInt(30), random.nextInt(3), null, Trace.NONE);
                createdAt.put(id, scheduler.now());
            } else if (choice < 8 && !createdAt.isEmpty()) {
                List<String> ids = new ArrayList<>(createdAt.keySet());
                String id = ids.get(random.nextInt(ids.size()));
                scheduler.cancel(id, Precondition.NONE, Trace.NONE);
                createdAt.remove(id);
            } else {
                for (Timer fired : scheduler.advance(random.nextInt(4), Trace.NONE).fired()) {
                    createdAt.remove(fired.id());
                }
                wall.set(1_000_000 + 1000 * scheduler.now());
            }
            Long expected = createdAt.values().stream().min(Long::compare).orElse(null);
            QueueStatus status = scheduler.status();
            assertThat(status.oldestCreatedAt()).as("arity %d step %d", arity, step).isEqualTo(expected);
            assertThat(status.size()).isEqualTo(createdAt.size());
        }
    }

    @ParameterizedTest(name = "arity {0}")
    @ValueSource(ints = {2, 4, 8})
    void oldestCreatedAtWallMillis_isRoundedDownToTheSecond(int arity) {
        MemoryClock scheduler = schedulerWithWallClock(arity);
        wall.set(1_700_000_123_999L);
        scheduler.add("a", 10, 0, null, Trace.NONE);
        assertThat(scheduler.status().oldestCreatedAtWallMillis()).isEqualTo(1_700_000_123_000L);
    }

    private void assertOldest(MemoryClock scheduler, long expectedCreatedAt) {
        QueueStatus status = scheduler.status();
        assertThat(status.oldestCreatedAt()).isEqualTo(expectedCreatedAt);
        assertThat(status.oldestCreatedAtWallMillis()).isEqualTo(1_000_000 + 1000 * expectedCreatedAt);
    }
}
