package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.Revision;
import io.timeservice.model.SchedulerException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.SchedulerMetrics;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.TimerScheduler;
import io.timeservice.store.memory.VirtualClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential model test: seeded random operations (adds and edits due after a delay or at an absolute time,
 * gets, conditional edits and cancels, bounded advances, previews and batches of them) run against the memory store's {@link TimerScheduler} and against the PostgreSQL
 * store, step by step; both must answer alike: the same timers in the same order, or the same refusal code at the
 * same batch index. Ids, fireTimes and priorities come from tiny ranges so they collide and tie constantly, and the
 * capacity is small so it refuses often.
 *
 * <p>Sequences are compared by order only: both issue increasing ones, but the database's sequence also spends
 * numbers on refused adds. Entity tags are taken from each store's own answers. To replay a failure, run the case
 * with the seed in its name.
 */
class SameAsMemoryStoreTest {

    private static final int CAPACITY = 12;
    private static final long CAPACITY_BYTES = 120;
    private static final int STEPS = 400;

    private static TestDatabase database;
    private static PostgresStore store;

    @BeforeAll
    static void openStore() {
        database = TestDatabase.create(SameAsMemoryStoreTest.class, 2);
        store = PostgresStore.open(database.dataSource(), CAPACITY, CAPACITY_BYTES, 100, ClockSettings.Mode.VIRTUAL);
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void randomOperations_answerAlikeOnBothStores(long seed) {
        String clock = "model-" + seed;
        store.clocks().create(clock, ClockSettings.Mode.VIRTUAL, 1_000, null);
        TimerScheduler memory = new TimerScheduler(new VirtualClock(1_000), 4,
                new PendingBudget(CAPACITY, CAPACITY_BYTES), () -> 0L, SchedulerMetrics.NONE);
        PostgresTimers postgres = store.timers();
        Random random = new Random(seed);
        try {
            for (int step = 0; step < STEPS; step++) {
                String id = "t" + random.nextInt(16);
                String what = "seed " + seed + " step " + step;
                switch (random.nextInt(9)) {
                    case 0, 1 -> {
                        Due due = due(random, memory.now());
                        int priority = random.nextInt(3) - 1;
                        String payload = payload(random);
                        same(what + " add " + id + " " + due,
                                () -> List.of(memory.add(id, due, priority, payload, Trace.NONE)),
                                () -> List.of(postgres.add(clock, id, due, priority, payload)));
                    }
                    case 2 -> same(what + " get " + id, () -> List.of(memory.get(id)),
                            () -> List.of(postgres.get(clock, id)));
                    case 3 -> {
                        int choice = random.nextInt(3);
                        same(what + " cancel " + id,
                                () -> List.of(memory.cancel(id, precondition(choice, () -> memory.get(id)),
                                        Trace.NONE)),
                                () -> List.of(postgres.cancel(clock, id,
                                        precondition(choice, () -> postgres.get(clock, id)))));
                    }
                    case 4 -> {
                        Due due = random.nextInt(4) == 0 ? null : due(random, memory.now());
                        Integer priority = random.nextBoolean() ? null : random.nextInt(3) - 1;
                        int choice = random.nextInt(3);
                        same(what + " edit " + id + " " + due,
                                () -> List.of(memory.edit(id, due, priority,
                                        precondition(choice, () -> memory.get(id)), Trace.NONE)),
                                () -> List.of(postgres.edit(clock, id, due, priority,
                                        precondition(choice, () -> postgres.get(clock, id)))));
                    }
                    case 5 -> {
                        boolean byGiven = random.nextBoolean();
                        long amount = random.nextInt(8) - (random.nextInt(10) == 0 ? 3 : 0);
                        Long by = byGiven ? amount : null;
                        Long to = byGiven ? null : memory.now() + amount;
                        int limit = random.nextInt(5) == 0 ? Integer.MAX_VALUE : random.nextInt(4);
                        same(what + " advance by " + by + " to " + to + " limit " + limit,
                                () -> advanced(memory.advance(by, to, limit, Trace.NONE)),
                                () -> advanced(postgres.advance(clock, by, to, limit)));
                        assertThat(store.clocks().get(clock).now()).as(what).isEqualTo(memory.now());
                    }
                    case 6 -> {
                        long dueBy = memory.now() + random.nextInt(10);
                        int limit = random.nextInt(5);
                        same(what + " dueBy " + dueBy + " limit " + limit,
                                () -> listed(memory.dueBy(dueBy, limit)),
                                () -> listed(postgres.dueBy(clock, dueBy, limit)));
                    }
                    default -> {
                        List<BatchOp> memoryOps = new ArrayList<>();
                        List<BatchOp> postgresOps = new ArrayList<>();
                        int size = random.nextInt(5);
                        for (int i = 0; i < size; i++) {
                            String opId = "t" + random.nextInt(16);
                            int kind = random.nextInt(3);
                            Due due = due(random, memory.now());
                            int priority = random.nextInt(3) - 1;
                            String payload = payload(random);
                            int choice = random.nextInt(2); // none or the current revision (decided before the batch)
                            memoryOps.add(op(kind, opId, due, priority, payload,
                                    precondition(choice, () -> memory.get(opId))));
                            postgresOps.add(op(kind, opId, due, priority, payload,
                                    precondition(choice, () -> postgres.get(clock, opId))));
                        }
                        same(what + " batch " + memoryOps, () -> memory.batch(memoryOps),
                                () -> postgres.batch(clock, postgresOps));
                    }
                }
            }
            same("seed " + seed + " at the end", () -> listed(memory.firstN(100)),
                    () -> listed(postgres.firstN(clock, 100)));
        } finally {
            store.clocks().delete(clock);
        }
    }

    /** A delay (two in three), else an absolute time: before now, at it, after it, or too far after it. */
    private static Due due(Random random, long now) {
        if (random.nextInt(3) > 0) {
            return Due.after(switch (random.nextInt(12)) {
                case 0 -> -1;
                case 1 -> Limits.MAX_DELAY + 1;
                default -> random.nextInt(10);
            });
        }
        return Due.at(switch (random.nextInt(12)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> now + Limits.MAX_DELAY + 1;
            case 2 -> now + Limits.MAX_DELAY;
            default -> now - 4 + random.nextInt(14);
        });
    }

    private static String payload(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> "{\"n\":" + random.nextInt(1000) + "}";
            case 2 -> "\"" + "p".repeat(random.nextInt(40)) + "\"";
            default -> "[]";
        };
    }

    private static BatchOp op(int kind, String id, Due due, int priority, String payload,
                              Precondition precondition) {
        return switch (kind) {
            case 0 -> new BatchOp.Add(id, due, priority, payload);
            case 1 -> new BatchOp.Edit(id, due, priority, precondition);
            default -> new BatchOp.Cancel(id, precondition);
        };
    }

    /** 0: unconditional; 1: the store's current revision (or none if absent); 2: a stale revision. */
    private static Precondition precondition(int choice, Supplier<Timer> current) {
        if (choice == 0) {
            return Precondition.NONE;
        }
        Revision revision;
        try {
            revision = current.get().revision();
        } catch (SchedulerException absent) {
            return Precondition.NONE;
        }
        return Precondition.ifMatch(choice == 1 ? revision
                : new Revision(revision.sequence(), revision.version() + 1));
    }

    private static List<Timer> advanced(io.timeservice.model.AdvanceResult result) {
        List<Timer> timers = new ArrayList<>(result.fired());
        timers.add(new Timer("now=" + result.now() + " complete=" + result.complete(), 0, 0, 0, 1, 0, null));
        return timers;
    }

    private static List<Timer> listed(io.timeservice.model.QueueListing listing) {
        List<Timer> timers = new ArrayList<>(listing.timers());
        timers.add(new Timer("now=" + listing.now() + " size=" + listing.size(), 0, 0, 0, 1, 0, null));
        return timers;
    }

    /** Both answer the same timers (sequences by order), or both refuse with the same code and batch index. */
    private static void same(String what, Supplier<List<Timer>> memory, Supplier<List<Timer>> postgres) {
        Object expected = outcome(memory);
        Object actual = outcome(postgres);
        assertThat(actual).as(what).isEqualTo(expected);
    }

    private static Object outcome(Supplier<List<Timer>> call) {
        try {
            List<Timer> timers = call.get();
            List<String> shown = new ArrayList<>();
            for (int i = 0; i < timers.size(); i++) {
                Timer t = timers.get(i);
                int sequenceRank = 0; // the order of sequences within the answer, not their values
                for (Timer other : timers) {
                    if (other.sequence() < t.sequence()) {
                        sequenceRank++;
                    }
                }
                shown.add(t.id() + " fire=" + t.fireTime() + " prio=" + t.priority() + " v=" + t.version()
                        + " created=" + t.createdAt() + " payload=" + t.payload() + " seqRank=" + sequenceRank);
            }
            return shown;
        } catch (SchedulerException refused) {
            return refused.code() + " at " + refused.opIndex();
        }
    }
}
