package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Revision;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Model test of {@link Clocks}: seeded random operations over a few clock names (create, delete, re-create, add,
 * cancel, edit, advance) against a plain reference model per clock. Results must agree step by step, refusals
 * included, the shared capacity must count every clock, and no revision a deleted clock issued may ever match a
 * timer of a clock re-created under its name.
 */
class ClocksModelTest {

    private static final int CAPACITY = 40;
    private static final String[] NAMES = {"default", "a", "b", "c"};
    private static final Comparator<Timer> FIRING_ORDER = Comparator.comparingLong(Timer::fireTime)
            .thenComparingInt(Timer::priority).thenComparingLong(Timer::sequence);

    /** One clock of the model: its time, pending timers and settings. */
    private static final class ModelClock {
        final long initialNow;
        long now;
        final Map<String, Timer> pending = new HashMap<>();

        ModelClock(long now) {
            this.initialNow = now;
            this.now = now;
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void randomOperationsAgreeWithAModelPerClock(long seed) {
        Random random = new Random(seed);
        Clocks clocks = Clocks.withVirtualClocks(4, CAPACITY, Long.MAX_VALUE, 4);
        Map<String, ModelClock> model = new TreeMap<>();
        model.put(Limits.DEFAULT_CLOCK, new ModelClock(0));
        /** Every revision any clock ever issued, by clock name: none may name a later timer of that name. */
        Map<String, Set<Revision>> issued = new HashMap<>();
        for (int step = 0; step < 4000; step++) {
            String name = NAMES[random.nextInt(NAMES.length)];
            ModelClock clock = model.get(name);
            String context = "seed " + seed + " step " + step + " clock " + name;
            int op = random.nextInt(100);
            if (op < 5) {
                long now = random.nextInt(3) * 10L;
                if (clock == null) {
                    Clocks.Created created = clocks.create(name, now);
                    assertThat(created.created()).as(context).isTrue();
                    model.put(name, new ModelClock(now));
                } else if (clock.initialNow == now) {
                    assertThat(clocks.create(name, now).created()).as(context).isFalse();
                } else {
                    assertRefused(() -> clocks.create(name, now), ErrorCode.CLOCK_CONFLICT, context);
                }
            } else if (op < 9) {
                if (clock == null) {
                    assertRefused(() -> clocks.delete(name), ErrorCode.CLOCK_NOT_FOUND, context);
                } else if (name.equals(Limits.DEFAULT_CLOCK)) {
                    assertRefused(() -> clocks.delete(name), ErrorCode.CLOCK_UNDELETABLE, context);
                } else {
                    clocks.delete(name);
                    model.remove(name);
                }
            } else if (clock == null) {
                assertRefused(() -> clocks.scheduler(name), ErrorCode.CLOCK_NOT_FOUND, context);
            } else if (op < 50) {
                TimerScheduler scheduler = clocks.scheduler(name);
                String id = "t" + random.nextInt(12);
                long delay = random.nextInt(20);
                int priority = random.nextInt(3);
                if (clock.pending.containsKey(id)) {
                    assertRefused(() -> scheduler.add(id, delay, priority, null, Trace.NONE), ErrorCode.DUPLICATE_ID,
                            context);
                } else if (totalPending(model) >= CAPACITY) {
                    assertRefused(() -> scheduler.add(id, delay, priority, null, Trace.NONE),
                            ErrorCode.CAPACITY_EXCEEDED, context);
                } else {
                    Timer added = scheduler.add(id, delay, priority, null, Trace.NONE);
                    assertThat(added.fireTime()).as(context).isEqualTo(clock.now + delay);
                    Revision revision = added.revision();
                    assertThat(issued.computeIfAbsent(name, n -> new HashSet<>())).as(context)
                            .doesNotContain(revision);
                    issued.get(name).add(revision);
                    clock.pending.put(id, added);
                }
            } else if (op < 65) {
                TimerScheduler scheduler = clocks.scheduler(name);
                String id = "t" + random.nextInt(12);
                Timer expected = clock.pending.remove(id);
                if (expected == null) {
                    assertRefused(() -> scheduler.cancel(id, Precondition.NONE, Trace.NONE),
                            ErrorCode.TIMER_NOT_FOUND, context);
                } else {
                    assertThat(scheduler.cancel(id, Precondition.NONE, Trace.NONE)).as(context).isEqualTo(expected);
                }
            } else if (op < 75) {
                // an old revision from any earlier life of this clock name never matches
                TimerScheduler scheduler = clocks.scheduler(name);
                String id = "t" + random.nextInt(12);
                Timer current = clock.pending.get(id);
                if (current != null) {
                    for (Revision old : issued.getOrDefault(name, Set.of())) {
                        if (!old.equals(current.revision())) {
                            assertRefused(() -> scheduler.cancel(id, Precondition.ifMatch(old), Trace.NONE),
                                    ErrorCode.PRECONDITION_FAILED, context);
                            break;
                        }
                    }
                    assertThat(scheduler.get(id)).as(context).isEqualTo(current);
                }
            } else if (op < 85) {
                // bounded advance to an absolute time, and the preview of it first
                TimerScheduler scheduler = clocks.scheduler(name);
                long to = clock.now + random.nextInt(15);
                int limit = 1 + random.nextInt(4);
                List<Timer> due = new ArrayList<>();
                for (Timer timer : clock.pending.values()) {
                    if (timer.fireTime() <= to) {
                        due.add(timer);
                    }
                }
                due.sort(FIRING_ORDER);
                List<Timer> firing = due.subList(0, Math.min(limit, due.size()));
                assertThat(scheduler.dueBy(to, limit).timers()).as(context).containsExactlyElementsOf(firing);
                AdvanceResult result = scheduler.advance(null, to, limit, Trace.NONE);
                boolean complete = due.size() <= limit;
                long newNow = complete ? to : firing.get(firing.size() - 1).fireTime();
                assertThat(result.fired()).as(context).containsExactlyElementsOf(firing);
                assertThat(result.complete()).as(context).isEqualTo(complete);
                assertThat(result.now()).as(context).isEqualTo(newNow);
                clock.now = newNow;
                firing.forEach(timer -> clock.pending.remove(timer.id()));
            } else {
                TimerScheduler scheduler = clocks.scheduler(name);
                long by = random.nextInt(15);
                List<Timer> due = new ArrayList<>();
                long newNow = clock.now + by;
                for (Timer timer : clock.pending.values()) {
                    if (timer.fireTime() <= newNow) {
                        due.add(timer);
                    }
                }
                due.sort(FIRING_ORDER);
                AdvanceResult result = scheduler.advance(by, Trace.NONE);
                assertThat(result.now()).as(context).isEqualTo(newNow);
                assertThat(result.fired()).as(context).containsExactlyElementsOf(due);
                clock.now = newNow;
                due.forEach(timer -> clock.pending.remove(timer.id()));
            }
            assertThat(clocks.budget().timers()).as(context).isEqualTo(totalPending(model));
            assertThat(clocks.list(10, null).stream().map(Clocks.Clock::name).toList()).as(context)
                    .containsExactlyElementsOf(model.keySet());
            for (Map.Entry<String, ModelClock> each : model.entrySet()) {
                QueueStatus status = clocks.scheduler(each.getKey()).status();
                assertThat(status.now()).as(context).isEqualTo(each.getValue().now);
                assertThat(status.size()).as(context).isEqualTo(each.getValue().pending.size());
            }
        }
    }

    @Test
    void aDeletedClockRefusesCallsThroughAnOldReferenceAndGivesItsCapacityBack() {
        Clocks clocks = Clocks.withVirtualClocks(4, 3, Long.MAX_VALUE, 10);
        TimerScheduler a = clocks.create("a", 5).clock().scheduler();
        a.add("x", 1, 0, null, Trace.NONE);
        a.add("y", 1, 0, null, Trace.NONE);
        clocks.defaultScheduler().add("z", 1, 0, null, Trace.NONE);
        assertRefused(() -> clocks.defaultScheduler().add("w", 1, 0, null, Trace.NONE),
                ErrorCode.CAPACITY_EXCEEDED, "full over two clocks");
        clocks.delete("a");
        assertRefused(() -> a.add("v", 1, 0, null, Trace.NONE), ErrorCode.CLOCK_NOT_FOUND, "old reference");
        assertRefused(a::status, ErrorCode.CLOCK_NOT_FOUND, "old reference");
        assertThat(clocks.budget().timers()).isEqualTo(1);
        clocks.defaultScheduler().add("w", 1, 0, null, Trace.NONE);
    }

    @Test
    void namesFollowTheIdRulesUpToSixtyFourCharactersAndTheLimitCountsTheDefaultClock() {
        Clocks clocks = Clocks.withVirtualClocks(4, 10, Long.MAX_VALUE, 2);
        assertRefused(() -> clocks.create("x".repeat(65), 0), ErrorCode.INVALID_ID, "65 characters");
        assertRefused(() -> clocks.create("..", 0), ErrorCode.INVALID_ID, "dot segment");
        assertRefused(() -> clocks.create("a b", 0), ErrorCode.INVALID_ID, "space");
        assertRefused(() -> clocks.create("a", -1), ErrorCode.INVALID_REQUEST, "negative now");
        clocks.create("x".repeat(64), 0);
        assertRefused(() -> clocks.create("b", 0), ErrorCode.CLOCK_LIMIT, "second of two");
        assertThat(clocks.list(1, Limits.DEFAULT_CLOCK).get(0).name()).isEqualTo("x".repeat(64));
    }

    private static int totalPending(Map<String, ModelClock> model) {
        return model.values().stream().mapToInt(clock -> clock.pending.size()).sum();
    }

    private static void assertRefused(Runnable call, ErrorCode code, String context) {
        assertThatThrownBy(call::run).as(context).isInstanceOfSatisfying(ProblemException.class,
                refused -> assertThat(refused.code()).as(context).isEqualTo(code));
    }
}
