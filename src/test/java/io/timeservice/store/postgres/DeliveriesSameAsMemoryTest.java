package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import io.timeservice.model.Ack;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Limits;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.SchedulerException;
import io.timeservice.model.Trace;
import io.timeservice.store.DeliveryStore;
import io.timeservice.store.SchedulerMetrics;
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.Clocks;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.MemoryDeliveryStore;
import io.timeservice.store.memory.MemoryTimerStore;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.TimerScheduler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential model test of the delivery queue: seeded random operations on a virtual queue clock with a jittered
 * retry policy of 3 attempts, run through the store boundary ({@link TimerStore}, {@link DeliveryStore}) on the
 * memory store and on the PostgreSQL store, step by step. Operations: adds (ids from a small set, so an id is
 * scheduled again after it fired and a pending one is refused), advances by small random steps and now and then
 * long ones that end leases (some to a time, some bounded by a limit), claims (random max and lease, sometimes out
 * of range), acks with the right claim, a stale one (acked, nacked, expired, redelivered), a made-up one, text that
 * is no token, or the right claim with another id (also repeated), batch acks mixing all of these (with a claim
 * named twice, and with another id), nacks with and without retryAfter, extends, dead-letter pages, redrives and
 * deletions of dead deliveries (by id, by sequence, or of nothing dead).
 *
 * <p>Compared after every step: the step's outcome (the same answer, or the same refusal code); the clock's now,
 * pending count, next fire time and oldest virtual creation; the pending timers; the delivery counts; the dead
 * list; and every unacknowledged delivery in full (state, attempt, lease end, retry time, ready time, dead reason,
 * and which claim holds it) — the memory scheduler's {@code allDeliveries()} against the {@code deliveries} rows.
 *
 * <p>Deliveries are compared as the API shows them ({@code web.DeliveryJson}): the lease end only in flight, the
 * retry time only while waiting, the reason only when dead. (The memory store keeps an expired lease's end in a
 * waiting, ready or dead delivery's view, where the API hides it; the PostgreSQL store clears it.)
 *
 * <p>Claim tokens differ by design (memory: a random prefix and an index; PostgreSQL: a UUID per delivery): each
 * store's tokens are numbered in the order its claims handed them out, the answers show that number instead of the
 * token, and acks, nacks and extends send each store its own token of the same number.
 *
 * <p>Sequences are compared as they are, not by order as in {@link SameAsMemoryStoreTest}: a retry's jitter is a
 * hash of the delivery's sequence, so retry times agree only when the sequences do. They do here by construction:
 * each seed runs on a fresh schema (the database's sequence starts at 1, as a new memory clock's), one writer, and a
 * capacity the run never reaches (the PostgreSQL store spends a sequence on an add refused for capacity, its one
 * known gap in a single thread; capacity refusals are {@link SameAsMemoryStoreTest}'s). Known and not compared:
 * the tokens themselves, creation times on the wall clock, and the acknowledged deliveries (memory forgets them but
 * for the recent-acks list; PostgreSQL keeps rows until purged). To replay a failure, run the case with the seed in
 * its name; the message names the step.
 */
class DeliveriesSameAsMemoryTest {

    private static final String CLOCK = "queue";
    private static final long START = 1_000;
    /** Three attempts, backoffs of 400 ms doubling to 3 s, spread by ±50%. */
    private static final RetryPolicy RETRY = new RetryPolicy(3, 400, 2.0, 3_000, 0.5);
    private static final ClockSettings SETTINGS = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, RETRY);
    private static final int CAPACITY = 100_000;
    private static final long CAPACITY_BYTES = 10_000_000;
    private static final int IDS = 8;
    private static final int STEPS = 400;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void randomDeliveryOperations_answerAlikeOnBothStores(long seed) {
        try (TestDatabase database = TestDatabase.create(DeliveriesSameAsMemoryTest.class, 2);
             PostgresStore store = PostgresStore.open(database.dataSource(), CAPACITY, CAPACITY_BYTES, 10,
                     ClockSettings.Mode.VIRTUAL)) {
            Clocks clocks = new Clocks((clock, budget) -> new TimerScheduler(clock, 4, budget, () -> 0L,
                    SchedulerMetrics.NONE), new PendingBudget(CAPACITY, CAPACITY_BYTES), 10, () -> 0L);
            new MemoryClockStore(clocks).create(CLOCK, START, SETTINGS);
            new PostgresClockStore(store).create(CLOCK, START, SETTINGS);
            Side memory = new Side(new MemoryTimerStore(clocks), new MemoryDeliveryStore(clocks),
                    () -> clocks.scheduler(CLOCK).allDeliveries());
            Side postgres = new Side(new PostgresTimerStore(store), new PostgresDeliveryStore(store),
                    () -> unacknowledgedRows(database));
            new Run(new Random(seed), memory, postgres).steps("seed " + seed);
        }
    }

    /** One store as the run drives it, with the claim tokens it handed out, numbered in order. */
    private static final class Side {
        final TimerStore timers;
        final DeliveryStore deliveries;
        final Supplier<List<Delivery>> unacknowledged;
        final List<String> claims = new ArrayList<>();
        final Map<String, Integer> numbers = new HashMap<>();

        Side(TimerStore timers, DeliveryStore deliveries, Supplier<List<Delivery>> unacknowledged) {
            this.timers = timers;
            this.deliveries = deliveries;
            this.unacknowledged = unacknowledged;
        }

        /** The number of {@code claim} in this store's order of handing tokens out (a new token gets the next). */
        String numbered(String claim) {
            if (claim == null) {
                return "-";
            }
            return "#" + numbers.computeIfAbsent(claim, token -> {
                claims.add(token);
                return claims.size() - 1;
            });
        }

        /** The delivery as the API shows it ({@code web.DeliveryJson}), its claim by number. */
        String shown(Delivery d) {
            String shown = d.id() + " fire=" + d.fireTime() + " prio=" + d.priority() + " seq=" + d.sequence()
                    + " payload=" + d.payload() + " attempt=" + d.attempt() + " ready=" + d.readyAt() + " " + d.state();
            return shown + switch (d.state()) {
                case IN_FLIGHT -> " claim=" + numbered(d.claim()) + " lease=" + d.leaseUntil();
                case WAITING -> " retry=" + d.retryAt();
                case DEAD -> " reason=" + d.deadReason();
                case READY -> "";
            };
        }

        List<String> shown(List<Delivery> deliveries) {
            return deliveries.stream().map(this::shown).toList();
        }
    }

    /** What a claim-bearing call names: a claim both stores handed out under one number, or text of the run's. */
    private record ClaimChoice(int number, String text) {
        String on(Side side) {
            return number >= 0 ? side.claims.get(number) : text;
        }

        @Override
        public String toString() {
            return number >= 0 ? "claim #" + number : "claim " + text;
        }
    }

    private static final class Run {
        private final Random random;
        private final Side memory;
        private final Side postgres;
        /** The id each claim number was handed out for (the same on both stores, or a step failed). */
        private final List<String> claimedIds = new ArrayList<>();
        private String what;

        Run(Random random, Side memory, Side postgres) {
            this.random = random;
            this.memory = memory;
            this.postgres = postgres;
        }

        void steps(String seed) {
            for (int step = 0; step < STEPS; step++) {
                what = seed + " step " + step;
                switch (random.nextInt(20)) {
                    case 0, 1, 2, 3 -> add();
                    case 4, 5, 6 -> advance();
                    case 7, 8, 9 -> claim();
                    case 10, 11 -> ack();
                    case 12 -> ackAll();
                    case 13, 14 -> nack();
                    case 15 -> extend();
                    case 16 -> deadPage();
                    case 17, 18 -> redrive();
                    default -> deleteDead();
                }
                sameState();
            }
        }

        private void add() {
            String id = "t" + random.nextInt(IDS);
            long delay = random.nextInt(2_000);
            int priority = random.nextInt(3) - 1;
            String payload = random.nextBoolean() ? null : "{\"n\":" + random.nextInt(100) + "}";
            same("add " + id + " in " + delay, side -> side.timers.add(CLOCK, id, delay, priority, payload,
                    Trace.NONE));
        }

        private void advance() {
            long amount = random.nextInt(5) == 0 ? 1_000 + random.nextInt(3_000) : random.nextInt(800);
            boolean byGiven = random.nextBoolean();
            long now = memory.timers.status(CLOCK).now();
            Long by = byGiven ? amount : null;
            Long to = byGiven ? null : now + amount;
            int limit = random.nextInt(3) == 0 ? 1 + random.nextInt(2) : Integer.MAX_VALUE;
            same("advance by " + by + " to " + to + " limit " + limit,
                    side -> side.timers.advance(CLOCK, by, to, limit, Trace.NONE));
        }

        private void claim() {
            int max = random.nextInt(12) == 0 ? 0 : 1 + random.nextInt(4);
            long lease = random.nextInt(12) == 0 ? Limits.MIN_LEASE_MILLIS - 1
                    : Limits.MIN_LEASE_MILLIS + random.nextInt(3_000);
            List<String> claimed = same("claim " + max + " for " + lease, side -> side.shown(
                    side.deliveries.claim(CLOCK, max, lease, 0)));
            if (claimed != null) {
                for (int i = 0; i < claimed.size(); i++) {
                    claimedIds.add(claimed.get(i).substring(0, claimed.get(i).indexOf(' ')));
                }
            }
        }

        private void ack() {
            ClaimChoice claim = claimChoice();
            String id = idFor(claim);
            same("ack " + id + " " + claim, side -> {
                side.deliveries.ack(CLOCK, id, claim.on(side));
                return "acked";
            });
        }

        private void ackAll() {
            int size = random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(4);
            List<ClaimChoice> claims = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                boolean repeat = i > 0 && random.nextInt(4) == 0; // a claim named twice, with its id or another
                ClaimChoice claim = repeat ? claims.get(random.nextInt(i)) : claimChoice();
                claims.add(claim);
                ids.add(idFor(claim));
            }
            same("ackAll " + ids + " " + claims, side -> {
                List<Ack> acks = new ArrayList<>();
                for (int i = 0; i < claims.size(); i++) {
                    acks.add(new Ack(ids.get(i), claims.get(i).on(side)));
                }
                return side.deliveries.ackAll(CLOCK, acks);
            });
        }

        private void nack() {
            ClaimChoice claim = claimChoice();
            String id = idFor(claim);
            Long retryAfter = switch (random.nextInt(8)) {
                case 0, 1, 2, 3 -> null;
                case 4 -> 0L;
                case 5 -> random.nextInt(10) == 0 ? -1L : (long) random.nextInt(1_500);
                default -> (long) random.nextInt(1_500);
            };
            same("nack " + id + " " + claim + " retryAfter " + retryAfter,
                    side -> side.shown(side.deliveries.nack(CLOCK, id, claim.on(side), retryAfter)));
        }

        private void extend() {
            ClaimChoice claim = claimChoice();
            String id = idFor(claim);
            long lease = random.nextInt(12) == 0 ? Limits.MIN_LEASE_MILLIS - 1
                    : Limits.MIN_LEASE_MILLIS + random.nextInt(3_000);
            same("extend " + id + " " + claim + " for " + lease,
                    side -> side.shown(side.deliveries.extend(CLOCK, id, claim.on(side), lease)));
        }

        private void deadPage() {
            int limit = random.nextInt(8) == 0 ? 0 : 1 + random.nextInt(3);
            long after = random.nextBoolean() ? 0 : random.nextInt(40);
            same("dead " + limit + " after " + after,
                    side -> side.shown(side.deliveries.dead(CLOCK, limit, after)));
        }

        private void redrive() {
            String id = deadId();
            Long sequence = deadSequence(id);
            same("redrive " + id + " seq " + sequence,
                    side -> side.shown(side.deliveries.redrive(CLOCK, id, sequence)));
        }

        private void deleteDead() {
            String id = deadId();
            Long sequence = deadSequence(id);
            same("deleteDead " + id + " seq " + sequence, side -> {
                side.deliveries.deleteDead(CLOCK, id, sequence);
                return "deleted";
            });
        }

        /** Mostly a claim that holds a lease now, else any handed out (mostly stale), a made-up token or no token. */
        private ClaimChoice claimChoice() {
            int handedOut = memory.claims.size();
            int kind = random.nextInt(10);
            if (handedOut == 0 || kind == 0) {
                return new ClaimChoice(-1, UUID.nameUUIDFromBytes(Long.toString(random.nextLong()).getBytes())
                        .toString());
            }
            if (kind == 1) {
                return new ClaimChoice(-1, "not-a-claim");
            }
            if (kind <= 3) {
                return new ClaimChoice(random.nextInt(handedOut), null);
            }
            List<Integer> held = memory.unacknowledged.get().stream()
                    .filter(d -> d.state() == Delivery.State.IN_FLIGHT).map(d -> memory.numbers.get(d.claim()))
                    .toList();
            return new ClaimChoice(held.isEmpty() ? handedOut - 1 : held.get(random.nextInt(held.size())), null);
        }

        /** The id the claim was handed out for, now and then another one. */
        private String idFor(ClaimChoice claim) {
            if (claim.number() < 0 || random.nextInt(8) == 0) {
                return "t" + random.nextInt(IDS);
            }
            return claimedIds.get(claim.number());
        }

        /** The id of a dead delivery (read from the memory store), now and then any id. */
        private String deadId() {
            List<Delivery> dead = memory.deliveries.dead(CLOCK, 100, 0);
            if (dead.isEmpty() || random.nextInt(6) == 0) {
                return "t" + random.nextInt(IDS);
            }
            return dead.get(random.nextInt(dead.size())).id();
        }

        /** None (every dead delivery of the id), one of its dead sequences, or one no dead delivery has. */
        private Long deadSequence(String id) {
            int kind = random.nextInt(4);
            if (kind <= 1) {
                return null;
            }
            List<Long> sequences = memory.deliveries.dead(CLOCK, 100, 0).stream()
                    .filter(d -> d.id().equals(id)).map(Delivery::sequence).toList();
            if (kind == 3 || sequences.isEmpty()) {
                return 1_000L + random.nextInt(10);
            }
            return sequences.get(random.nextInt(sequences.size()));
        }

        /** Both stores answer alike, or refuse with the same code; returns the answer (null when refused). */
        @SuppressWarnings("unchecked")
        private <T> T same(String call, Function<Side, T> operation) {
            Object expected = outcome(memory, operation);
            Object actual = outcome(postgres, operation);
            assertThat(actual).as(what + " " + call).isEqualTo(expected);
            return expected instanceof Refused ? null : (T) expected;
        }

        /** The clock, the pending timers and every unacknowledged delivery are alike on both stores. */
        private void sameState() {
            same("status", side -> {
                QueueStatus status = side.timers.status(CLOCK);
                return "now=" + status.now() + " size=" + status.size() + " next=" + status.nextFireTime()
                        + " oldest=" + status.oldestCreatedAt();
            });
            same("pending timers", side -> side.timers.firstN(CLOCK, 100).timers());
            same("counts", side -> side.deliveries.counts(CLOCK));
            same("dead letters", side -> side.shown(side.deliveries.dead(CLOCK, 100, 0)));
            same("deliveries", side -> side.shown(side.unacknowledged.get()));
        }
    }

    private record Refused(String code) {
    }

    private static Object outcome(Side side, Function<Side, ?> operation) {
        try {
            return operation.apply(side);
        } catch (SchedulerException refused) {
            return new Refused(refused.code().name());
        }
    }

    /** The clock's unacknowledged deliveries as the memory store shows them, in sequence order. */
    private static List<Delivery> unacknowledgedRows(TestDatabase database) {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement select = connection.prepareStatement("""
                     SELECT id, fire_time, priority, seq, payload, attempt, state, claim, lease_until, retry_at,
                            ready_at, dead_reason
                       FROM deliveries WHERE clock = ? AND state <> 'acked' ORDER BY seq""")) {
            select.setString(1, CLOCK);
            List<Delivery> rows = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    rows.add(new Delivery(row.getString(1), row.getLong(2), row.getInt(3), row.getLong(4),
                            row.getString(5), row.getInt(6),
                            Delivery.State.valueOf(row.getString(7).toUpperCase(Locale.ROOT)), row.getString(8),
                            row.getLong(9), row.getLong(10), row.getLong(11), row.getString(12)));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
