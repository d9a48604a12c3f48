package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.SchedulerMetrics;
import io.timeservice.store.memory.Clocks;
import io.timeservice.store.memory.FiringLoop;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.TimerScheduler;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A scaled clock after a restart continues on the same function of the wall clock: its creation and every rate
 * change are journaled (and a snapshot keeps its anchor), so at any wall time the recovered clock shows what the
 * clock before the restart showed, with the same timers, deliveries and settings; a fork of it and a load of its
 * snapshot too.
 */
class ScaledClockJournalTest {

    private static final long NO_SNAPSHOTS = Long.MAX_VALUE;
    private static final RetryPolicy RETRIES = new RetryPolicy(3, 50, 2.0, 400, 0.0);
    private static final String[] RATES = {"0", "0.5", "1", "2.25", "60", "1000"};

    @TempDir
    Path dir;

    private final AtomicLong wall = new AtomicLong(1_700_000_000_000L);
    /** The latest wall time any step reached: the drive steps the wall clock back now and then. */
    private long latestWall = wall.get();

    /**
     * Fixed seeds, so that every run drives the same histories (the first one found the fork's time lost in replay);
     * {@code -Dseed=N} replays another one, {@code -Dseeds=N} tries N random ones.
     */
    static Stream<Arguments> histories() {
        Long chosen = Long.getLong("seed");
        int random = Integer.getInteger("seeds", 0);
        List<Long> seeds = chosen != null ? List.of(chosen)
                : random > 0 ? new Random().longs(random).boxed().toList()
                : List.of(-312983210877620971L, 1L, 20261204L, 7_000_000_007L);
        return seeds.stream().flatMap(seed -> Stream.of(Arguments.of(false, seed), Arguments.of(true, seed)));
    }

    @ParameterizedTest(name = "snapshot between: {0}, seed {1}")
    @MethodSource("histories")
    void restart_continuesTheSameFunctionOfTheWallClock(boolean snapshotBetween, long seed) throws IOException {
        Clocks before = fresh();
        try (JournalStore store = open(before)) {
            before.create("soak", 1_000, settings("60"));
            FiringLoop loop = firing(before);
            drive(before, loop, new Random(seed), 400);
            if (snapshotBetween) {
                before.snapshotNow();
                store.writer().awaitSnapshotIdle();
            }
            before.fork("variant", "soak");
            before.load("loaded", new MemoryClockStore(before).snapshot("soak"));
            drive(before, loop, new Random(seed + 1), 400);
        }
        // While the wall clock stands behind the latest time it reached, a clock shows the latest time it read, and
        // a read that no record kept (a GET, a refused call) is not durable, as on a system clock; what was journaled
        // is. So compare from a wall time at which the function itself stands at or past every reading.
        wall.set(latestWall);
        Clocks after = fresh();
        try (JournalStore store = open(after)) {
            for (String name : List.of("soak", "variant", "loaded")) {
                String context = name + ", seed " + seed;
                TimerScheduler was = before.scheduler(name);
                TimerScheduler is = after.scheduler(name);
                assertThat(after.get(name).settings()).as(context).isEqualTo(before.get(name).settings());
                assertThat(is.now()).as(context).isEqualTo(was.now());
                assertThat(is.firstN(1_000)).as(context).isEqualTo(was.firstN(1_000));
                // leases in flight start again for their full length after a restart; everything else is as it was
                assertThat(is.allDeliveries()).as(context).usingElementComparatorIgnoringFields("leaseUntil")
                        .isEqualTo(was.allDeliveries());
                wall.addAndGet(12_345);
                assertThat(is.now()).as(context + ", later").isEqualTo(was.now());
            }
            after.rerate("soak", ClockRate.of(BigDecimal.ONE)); // and it journals on
        }
        Clocks third = fresh();
        try (JournalStore store = open(third)) {
            assertThat(third.get("soak").settings().rate()).isEqualTo(ClockRate.of(BigDecimal.ONE));
            assertThat(third.scheduler("soak").now()).isEqualTo(after.scheduler("soak").now());
        }
    }

    /** Random adds, wall-clock steps with firing rounds, rate changes, claims, acks and nacks. */
    private void drive(Clocks clocks, FiringLoop loop, Random random, int steps) {
        for (int step = 0; step < steps; step++) {
            String name = clocks.count() > 2 && random.nextBoolean() ? "variant" : "soak";
            TimerScheduler clock = clocks.scheduler(name);
            try {
                switch (random.nextInt(8)) {
                    case 0, 1 -> clock.add("t" + random.nextInt(30), random.nextInt(600_000), random.nextInt(3),
                            null, Trace.NONE);
                    case 2, 3 -> {
                        latestWall = Math.max(latestWall, wall.addAndGet(random.nextInt(2_000) - 200)); // now and then back
                        loop.fireDue();
                    }
                    case 4 -> clocks.rerate(name, ClockRate.of(new BigDecimal(RATES[random.nextInt(RATES.length)])));
                    case 5 -> clock.claim(1 + random.nextInt(3), 1_000 + random.nextInt(60_000), 0);
                    default -> {
                        List<Delivery> inFlight = clock.allDeliveries().stream()
                                .filter(d -> d.state() == Delivery.State.IN_FLIGHT).toList();
                        if (!inFlight.isEmpty()) {
                            Delivery d = inFlight.get(random.nextInt(inFlight.size()));
                            if (random.nextBoolean()) {
                                clock.ack(d.id(), d.claim());
                            } else {
                                clock.nack(d.id(), d.claim(), null);
                            }
                        }
                    }
                }
            } catch (ProblemException refused) {
                // duplicates, lost claims: refused calls change nothing
            }
        }
    }

    private static ClockSettings settings(String rate) {
        return ClockSettings.of(ClockSettings.Mode.SCALED, null, RETRIES, ClockRate.of(new BigDecimal(rate)));
    }

    private FiringLoop firing(Clocks clocks) {
        FiringLoop loop = new FiringLoop(wall::get, 1_000, 10_000);
        clocks.fireWith(loop);
        return loop;
    }

    private Clocks fresh() {
        return new Clocks((clock, shared) -> new TimerScheduler(clock, 4, shared, wall::get, SchedulerMetrics.NONE),
                new PendingBudget(10_000, Long.MAX_VALUE), 10, wall::get);
    }

    private JournalStore open(Clocks clocks) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, NO_SNAPSHOTS,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
