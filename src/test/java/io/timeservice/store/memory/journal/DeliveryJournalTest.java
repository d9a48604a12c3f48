package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.Ack;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowRate;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.time.FiringLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deliveries survive restarts: every fire, claim, ack, nack, extend, expiry, death, redrive and delete is journaled,
 * replayed (or loaded from a snapshot) to exactly the state the service had; leases in flight at a crash of a system
 * clock start again for their full length at the restart.
 */
class DeliveryJournalTest {

    private static final RetryPolicy RETRIES = new RetryPolicy(3, 50, 2.0, 400, 0.5);
    private static final ClockSettings VIRTUAL_QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, RETRIES);
    /** Flow control per key and for the clock, on a virtual clock. */
    private static final ClockSettings FLOW_QUEUE = VIRTUAL_QUEUE.withFlow(new FlowLimits(2, new FlowRate(3, 100),
            null, 4, new FlowRate(5, 100)));
    private static final ClockSettings SYSTEM_QUEUE = new ClockSettings(ClockSettings.Mode.SYSTEM,
            ClockSettings.DeliveryMode.QUEUE, RETRIES);

    @TempDir
    Path dir;

    private final AtomicLong wall = new AtomicLong(1_700_000_000_000L);

    @Test
    void restart_replaysEveryDeliveryChange_toTheSameState() throws IOException {
        ClockRegistry before = fresh();
        List<List<Delivery>> expected;
        try (JournalStore store = open(before)) {
            start(before);
            drive(before, new Random(11), 1_500);
            expected = deliveriesOf(before);
        }
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertSameDeliveries(deliveriesOf(after), expected, wall.get());
            assertSamePending(after, before);
        }
    }

    @Test
    void aKeyedTimer_andItsDelivery_keepTheirKey_overARestart() throws IOException {
        ClockRegistry before = fresh();
        try (JournalStore store = open(before)) {
            start(before);
            MemoryClock virt = before.scheduler("virt");
            virt.add("a", Due.after(5), 0, null, null, "tenant-1", Trace.NONE);
            virt.add("b", Due.after(50), 0, null, null, "tenant-2", Trace.NONE);
            virt.advance(5, Trace.NONE);
            virt.claim(1, 1_000, 0);
        }
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            MemoryClock virt = after.scheduler("virt");
            assertThat(virt.get("b").key()).isEqualTo("tenant-2");
            assertThat(virt.allDeliveries()).extracting(Delivery::key).containsExactly("tenant-1");
        }
    }

    @Test
    void restart_fromASnapshotTakenAmidDeliveries_andTheRecordsAfterIt() throws IOException {
        ClockRegistry before = fresh();
        List<List<Delivery>> expected;
        try (JournalStore store = open(before)) {
            start(before);
            drive(before, new Random(12), 800);
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
            drive(before, new Random(13), 800);
            expected = deliveriesOf(before);
        }
        assertThat(JournalFiles.snapshotNumbers(dir)).hasSize(1);
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            assertSameDeliveries(deliveriesOf(after), expected, wall.get());
            assertSamePending(after, before);
        }
    }

    @Test
    void aClaimInFlightAtTheCrash_canStillBeAcked_andComesBackAFullLeaseAfterTheRestart() throws IOException {
        ClockRegistry before = fresh();
        Delivery acked;
        Delivery abandoned;
        try (JournalStore store = open(before)) {
            start(before);
            MemoryClock sys = before.scheduler("sys");
            sys.add("a", 0, 0, null, Trace.NONE);
            sys.add("b", 0, 0, null, Trace.NONE);
            firing(before).fireDue();
            List<Delivery> claimed = sys.claim(2, 10_000, 0);
            acked = claimed.get(0);
            abandoned = claimed.get(1);
        }
        wall.addAndGet(8_000); // down for 8 of the lease's 10 seconds
        long restart = wall.get();
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            MemoryClock sys = after.scheduler("sys");
            assertThat(sys.allDeliveries()).allSatisfy(d -> assertThat(d.leaseUntil()).isEqualTo(restart + 10_000));
            sys.ack("a", acked.claim());
            FiringLoop loop = firing(after);
            wall.set(restart + 9_999);
            loop.fireDue();
            assertThat(sys.deliveryCounts().inFlight()).isEqualTo(1);
            wall.set(restart + 10_000 + 100); // lease over, retry after 50 ms * (1 ± 0.5)
            loop.fireDue();
            Delivery again = sys.claim(1, 10_000, 0).get(0);
            assertThat(again.sequence()).isEqualTo(abandoned.sequence());
            assertThat(again.attempt()).isEqualTo(2);
        }
        ClockRegistry third = fresh();
        try (JournalStore store = open(third)) {
            // the renewal was journaled: a second recovery replays the same lease ends
            assertThat(third.scheduler("sys").allDeliveries()).singleElement()
                    .satisfies(d -> assertThat(d.attempt()).isEqualTo(2));
        }
    }

    @Test
    void aRepeatedAck_succeedsAfterARestartFromASnapshot_asBeforeIt() throws IOException {
        ClockRegistry before = fresh();
        List<Delivery> claimed;
        try (JournalStore store = open(before)) {
            start(before);
            MemoryClock virt = before.scheduler("virt");
            virt.add("a", 1, 0, null, Trace.NONE);
            virt.add("b", 1, 0, null, Trace.NONE);
            virt.advance(1, Trace.NONE);
            claimed = virt.claim(2, 10_000, 0);
            virt.ack("a", claimed.get(0).claim());
            virt.ack("b", claimed.get(1).claim());
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
        }
        assertThat(JournalFiles.snapshotNumbers(dir)).hasSize(1);
        ClockRegistry after = fresh();
        try (JournalStore store = open(after)) {
            MemoryClock virt = after.scheduler("virt");
            virt.ack("b", claimed.get(1).claim()); // answered from the recent acks the snapshot kept
            assertThat(virt.ackAll(List.of(new Ack("a", claimed.get(0).claim()))))
                    .containsExactly((ErrorCode) null);
            assertThatThrownBy(() -> virt.ack("b", claimed.get(0).claim()))
                    .hasFieldOrPropertyWithValue("code", ErrorCode.CLAIM_LOST);
            assertThat(virt.allDeliveries()).isEmpty();
        }
    }

    @Test
    void timePassedWhileTheDeliveryLimitHeldFiringBack_isKeptByTheSnapshot_andReplayedAfterIt() throws IOException {
        ClockRegistry before = fresh(2);
        try (JournalStore store = open(before)) {
            before.create("virt", 0, VIRTUAL_QUEUE);
            MemoryClock virt = before.scheduler("virt");
            for (String id : List.of("a", "b", "c", "d")) {
                virt.add(id, 1, 0, null, Trace.NONE);
            }
            virt.advance(1, Trace.NONE);                                    // a and b fill the limit of 2
            virt.advance(null, 5_000L, Integer.MAX_VALUE, Trace.NONE);      // time passes; c and d wait
            before.snapshotNow();
            store.writer().awaitSnapshotIdle();
            virt.advance(null, 7_000L, Integer.MAX_VALUE, Trace.NONE);      // and again, after the snapshot
        }
        assertThat(JournalFiles.snapshotNumbers(dir)).hasSize(1);
        ClockRegistry after = fresh(2);
        try (JournalStore store = open(after)) {
            MemoryClock virt = after.scheduler("virt");
            assertThat(virt.now()).isEqualTo(7_000);
            assertThat(virt.checkInvariants().ok()).as("c and d wait behind what fired: not overdue").isTrue();
            for (Delivery d : virt.claim(2, 1_000, 0)) {
                virt.ack(d.id(), d.claim());
            }
            assertThat(virt.advance(null, 7_000L, Integer.MAX_VALUE, Trace.NONE).fired())
                    .extracting(io.timeservice.model.Timer::id).containsExactly("c", "d");
            assertThat(virt.checkInvariants().ok()).isTrue();
        }
    }

    /** Creates the two queueing clocks on a fresh service, then lets the firing thread's logic look at them. */
    private void start(ClockRegistry clocks) {
        clocks.create("virt", 0, VIRTUAL_QUEUE);
        clocks.create("sys", 0, SYSTEM_QUEUE);
        clocks.create("flow", 0, FLOW_QUEUE);
    }

    private FiringLoop firing(ClockRegistry clocks) {
        FiringLoop loop = new FiringLoop(wall::get, 1_000, 10_000);
        clocks.fireWith(loop);
        return loop;
    }

    /** Random adds, time steps, firing rounds and every delivery call, on both clocks. */
    private void drive(ClockRegistry clocks, Random random, int steps) {
        FiringLoop loop = firing(clocks);
        int next = 0;
        for (int step = 0; step < steps; step++) {
            MemoryClock clock = clocks.scheduler(List.of("virt", "sys", "flow").get(random.nextInt(3)));
            int action = random.nextInt(10);
            try {
                switch (action) {
                    case 0, 1 -> clock.add("t" + next++ % 40, Due.after(random.nextInt(300)), random.nextInt(3) - 1,
                            random.nextBoolean() ? null : "{\"n\":" + step + "}", null,
                            random.nextBoolean() ? null : "key-" + random.nextInt(3), Trace.NONE);
                    case 2 -> {
                        if (clock.settings().isSystem()) {
                            wall.addAndGet(random.nextInt(200));
                            loop.fireDue();
                        } else {
                            clock.advance(random.nextInt(200), Trace.NONE);
                        }
                    }
                    case 3, 4 -> clock.claim(1 + random.nextInt(3), 1_000 + random.nextInt(500), 0);
                    case 5, 6, 7 -> {
                        Delivery d = anyInFlight(clock, random);
                        if (d != null) {
                            switch (random.nextInt(4)) {
                                case 0 -> clock.ack(d.id(), d.claim());
                                case 1 -> clock.ackAll(List.of(new Ack(d.id(), d.claim()),
                                        new Ack(d.id(), "lost")));
                                case 2 -> clock.nack(d.id(), d.claim(), random.nextBoolean() ? null
                                        : (long) random.nextInt(100));
                                default -> clock.extend(d.id(), d.claim(), 1_000 + random.nextInt(2_000));
                            }
                        }
                    }
                    case 8 -> {
                        List<Delivery> dead = clock.deadDeliveries(10, 0);
                        if (dead.size() > 2) { // keeps some dead ones, so the end state has every kind
                            Delivery d = dead.get(random.nextInt(dead.size()));
                            if (random.nextBoolean()) {
                                clock.redrive(d.id(), d.sequence());
                            } else {
                                clock.deleteDead(d.id(), null);
                            }
                        }
                    }
                    default -> clock.cancel("t" + random.nextInt(40), io.timeservice.model.Precondition.NONE,
                            Trace.NONE);
                }
            } catch (ProblemException refused) {
                // duplicates, unknown ids, expired claims: refused calls change nothing
            }
        }
    }

    private static Delivery anyInFlight(MemoryClock clock, Random random) {
        List<Delivery> inFlight = clock.allDeliveries().stream()
                .filter(d -> d.state() == Delivery.State.IN_FLIGHT).toList();
        return inFlight.isEmpty() ? null : inFlight.get(random.nextInt(inFlight.size()));
    }

    private static List<List<Delivery>> deliveriesOf(ClockRegistry clocks) {
        List<List<Delivery>> all = new ArrayList<>();
        all.add(clocks.scheduler("virt").allDeliveries());
        all.add(clocks.scheduler("sys").allDeliveries());
        all.add(clocks.scheduler("flow").allDeliveries());
        return all;
    }

    /** The same deliveries; the system clock's leases in flight start again at {@code restart}. */
    private static void assertSameDeliveries(List<List<Delivery>> actual, List<List<Delivery>> expected,
                                             long restart) {
        assertThat(actual.get(0)).isEqualTo(expected.get(0));
        assertThat(actual.get(2)).isEqualTo(expected.get(2)); // flow control: the claims named what they took
        // the drive reaches every state, so every kind of record was replayed
        assertThat(expected.stream().flatMap(List::stream).map(Delivery::state).distinct())
                .containsExactlyInAnyOrder(Delivery.State.values());
        assertThat(actual.get(1)).hasSameSizeAs(expected.get(1)).isNotEmpty();
        for (int i = 0; i < expected.get(1).size(); i++) {
            Delivery was = expected.get(1).get(i);
            Delivery is = actual.get(1).get(i);
            if (was.state() == Delivery.State.IN_FLIGHT) {
                assertThat(is.leaseUntil()).isGreaterThanOrEqualTo(restart);
                is = new Delivery(is.id(), is.fireTime(), is.priority(), is.sequence(), is.payload(), is.attempt(),
                        is.state(), is.claim(), was.leaseUntil(), is.retryAt(), is.readyAt(), is.deadReason(),
                        is.schedule(), is.traceContext(), is.key());
            }
            assertThat(is).isEqualTo(was);
        }
    }

    private static void assertSamePending(ClockRegistry after, ClockRegistry before) {
        assertThat(after.scheduler("flow").settings()).isEqualTo(FLOW_QUEUE);
        for (String name : List.of("virt", "sys", "flow")) {
            assertThat(after.scheduler(name).firstN(1_000).timers())
                    .isEqualTo(before.scheduler(name).firstN(1_000).timers());
            assertThat(after.scheduler(name).checkInvariants().ok()).isTrue();
        }
        assertThat(after.budget().timers()).isEqualTo(before.budget().timers());
        assertThat(after.budget().deliveries()).isEqualTo(before.budget().deliveries());
    }

    private ClockRegistry fresh() {
        return fresh(10_000);
    }

    private ClockRegistry fresh(long maxDeliveries) {
        PendingBudget budget = new PendingBudget(10_000, Long.MAX_VALUE);
        budget.limitDeliveries(maxDeliveries);
        return new ClockRegistry((clock, shared) -> new MemoryClock(clock, 4, shared, wall::get, StoreMetrics.NONE),
                budget, 10, wall::get);
    }

    private JournalStore open(ClockRegistry clocks) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, Long.MAX_VALUE,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
