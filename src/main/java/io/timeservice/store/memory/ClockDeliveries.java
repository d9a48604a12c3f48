package io.timeservice.store.memory;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import io.timeservice.model.Ack;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.DeliveryRules;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.store.DeliveryStore.Chunk;
import io.timeservice.store.LongPoll;
import io.timeservice.store.StoreMetrics.DeliveryEvent;
import io.timeservice.store.StoreMetrics.Operation;
import io.timeservice.store.StoreMetrics;

/**
 * One queueing clock's deliveries (see {@link DeliveryQueue}): claim, ack, nack, extend, dead letters and their
 * redrive, the settling of ended leases and due retries, and the delivery events each call reports.
 *
 * <p>Thread-safety and all-or-nothing as every job of a {@link MemoryClock}: every call runs through the clock's
 * {@link ClockKernel} (its lock, which guards this state too, fail-stop check, journal-first commit and durable
 * wait), so a delivery call and a timer operation of one clock never interleave. Only the long poll's wait, the
 * claim tokens' random draw and the metrics happen outside the lock. The counts gauges read are a volatile snapshot.
 */
final class ClockDeliveries {

    private final ClockKernel kernel;
    /** The clock's queue; guarded by its lock. */
    private final DeliveryQueue deliveries;
    private final Capacity capacity;
    private final StoreMetrics metrics;
    private final ReadySignal readySignal = new ReadySignal();
    /**
     * The ready signal for a clock under flow control: a held-back delivery becomes eligible when a token refills,
     * which nothing signals (it is only the clock's time passing), so a long poll looks again at least every
     * {@link #HELD_BACK_LOOK_MILLIS}.
     */
    private final LongPoll.Signal heldBackSignal = new LongPoll.Signal() {
        @Override
        public long generation() {
            return readySignal.generation();
        }

        @Override
        public void awaitChange(long seen, long nanos) throws InterruptedException {
            readySignal.awaitChange(seen, Math.min(nanos, HELD_BACK_LOOK_MILLIS * 1_000_000));
        }
    };
    static final long HELD_BACK_LOOK_MILLIS = 20;
    /** Told whenever deliveries are ready after a change (a pusher takes note); runs under the lock. */
    private volatile Runnable readyHook = () -> { };
    /** Set when the service shuts down: long polls answer at once instead of holding their threads. */
    private volatile boolean waitsEnded;
    /** Delivery counts for gauges, written under the lock, read without it. */
    private volatile DeliveryCounts counts = DeliveryCounts.NONE;
    private volatile FlowCounts flowCounts = FlowCounts.NONE;

    ClockDeliveries(ClockKernel kernel, DeliveryQueue deliveries, Capacity capacity, StoreMetrics metrics) {
        this.kernel = kernel;
        this.deliveries = deliveries;
        this.capacity = capacity;
        this.metrics = metrics;
    }

    /** This clock's deliveries by state, as of its last change; O(1), no lock. */
    DeliveryCounts counts() {
        return counts;
    }

    /** Ready deliveries held back by flow control and the keys holding them, as of the last change; no lock. */
    record FlowCounts(int heldBack, int keysAtLimit) {
        static final FlowCounts NONE = new FlowCounts(0, 0);
    }

    FlowCounts flowCounts() {
        return flowCounts;
    }

    /** Refreshes the counts, noting whether firing holds due timers back; call under the lock. */
    void recount(boolean heldBack) {
        counts = countDeliveries(heldBack);
    }

    /** Forgets every delivery, giving their share of the budget back (reset, clock deletion); call under the lock. */
    void drop() {
        capacity.deliveriesGone(deliveries.size(), deliveries.bytes());
        deliveries.clear();
        changed();
    }

    /** Runs {@code hook} after each change that leaves deliveries ready, under the lock: it must only take note. */
    void onReady(Runnable hook) {
        readyHook = hook;
    }

    /** Wakes every long poll to look again (the clock was deleted: they hear clock_not_found). */
    void wakeWaiters() {
        readySignal.signal();
    }

    private static final SecureRandom CLAIM_RANDOM = new SecureRandom();

    /**
     * Leases up to {@code max} ready deliveries for {@code leaseMillis}, longest-ready first (first attempts in firing
     * order), each with its own claim token. With {@code waitMillis > 0} and nothing ready, waits until something
     * becomes ready or the wait ends (a long poll), outside the lock.
     *
     * @throws ProblemException {@code invalid_limit}, {@code invalid_request} (lease or wait out of range),
     *                            {@code clock_not_queued}
     */
    List<Delivery> claim(int max, long leaseMillis, long waitMillis) {
        DeliveryRules.requireClaim(max, leaseMillis, waitMillis);
        return LongPoll.claim(waitMillis, deliveries.flowControlled() ? heldBackSignal : readySignal,
                () -> waitsEnded, () -> claimReady(max, leaseMillis));
    }

    private List<Delivery> claimReady(int max, long leaseMillis) {
        String claimPrefix = newClaimPrefix(); // outside the lock: the only random draw of a claim
        return deliveryCall(Operation.CLAIM, tally -> {
            requireQueue();
            long now = kernel.clock().now();
            long settledAt = settle(now, tally);
            if (kernel.settings().paused()) { // held back, never lost: the resume wakes the waiters
                return new Applied<>(List.<Delivery>of(), settledAt, Applied.NO_LEVELS);
            }
            DeliveryQueue.Planned planned = deliveries.flowControlled() ? deliveries.plan(now, max) : null;
            tally.tokensDenied += deliveries.takeTokensDenied();
            int count = planned != null ? planned.entries().size() : Math.min(max, deliveries.readyCount());
            if (count == 0) {
                return new Applied<>(List.<Delivery>of(), settledAt, Applied.NO_LEVELS);
            }
            kernel.log().requireWritable();
            List<String> claims = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                claims.add(claimPrefix + Integer.toString(i, 36));
            }
            Applied<List<Delivery>> leased = planned == null
                    ? kernel.commit(new Mutation.Claimed(now, leaseMillis, claims),
                            () -> deliveries.claim(now, leaseMillis, claims))
                    : kernel.commit(new Mutation.FlowClaimed(now, leaseMillis, claims, planned.sequences()),
                            () -> deliveries.claim(now, leaseMillis, claims, planned));
            tally.claimed(leased.value(), now, kernel.settings().isSystem());
            changed();
            return leased;
        });
    }

    /**
     * Ends every long poll of this clock now and every later one at once (a claim still takes what is ready): the
     * service is shutting down, and a graceful shutdown should not wait out the polls.
     */
    void endWaits() {
        waitsEnded = true;
        readySignal.signal();
    }

    /** Lets long polls of this clock wait again after {@link #endWaits} (the service was stopped and started). */
    void allowWaits() {
        waitsEnded = false;
    }

    /** 128 random bits, URL-safe: every claim of one call is this plus its index, so no claim can be guessed. */
    private static String newClaimPrefix() {
        byte[] random = new byte[16];
        CLAIM_RANDOM.nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random) + ".";
    }

    /**
     * Acknowledges the delivery {@code id} leased by {@code claim}: it leaves the queue for good. Acknowledging a
     * recently acknowledged claim again succeeds and changes nothing.
     *
     * @throws ProblemException {@code claim_lost} (see {@link #nack}), {@code clock_not_queued}
     */
    void ack(String id, String claim) {
        deliveryCall(Operation.ACK, tally -> {
            requireQueue();
            Delivery leased = deliveries.requireClaim(id, claim, kernel.clock().now(), true);
            if (leased == null) {
                // acknowledged before: nothing to change, but the answer confirms that ack, so it waits for it too
                return new Applied<>(null, kernel.log().lastAppended(), Applied.NO_LEVELS);
            }
            kernel.log().requireWritable();
            Applied<Delivery> acked = kernel.commit(new Mutation.Acked(claim), () -> {
                Delivery gone = deliveries.ack(claim);
                capacity.deliveriesGone(1, Capacity.bytesOf(gone.id(), gone.payload()));
                changed();
                return gone;
            });
            tally.add(DeliveryEvent.ACKED, 1);
            return acked;
        });
    }

    /**
     * Acknowledges up to {@link Limits#MAX_CLAIM} deliveries in one journal record, waited for once: each as {@link #ack}
     * decides it, on its own. Returns, in order, null for each acknowledged (now or recently before) and
     * {@link ErrorCode#CLAIM_LOST} for each whose claim holds no lease, which changes nothing; a claim named twice
     * counts once.
     *
     * @throws ProblemException {@code invalid_request} for no or more than {@link Limits#MAX_CLAIM} acks,
     *                            {@code clock_not_queued}
     */
    List<ErrorCode> ackAll(List<Ack> acks) {
        DeliveryRules.requireAckCount(acks);
        return deliveryCall(Operation.ACK, tally -> {
            requireQueue();
            long now = kernel.clock().now();
            List<ErrorCode> outcomes = new ArrayList<>(acks.size());
            Set<String> accepted = new LinkedHashSet<>();
            for (Ack ack : acks) {
                try {
                    // a claim named again is still leased here (acks apply below), so another id is claim_lost
                    Delivery leased = deliveries.requireClaim(ack.id(), ack.claim(), now, true);
                    if (leased != null) {
                        accepted.add(ack.claim()); // a set: a claim named twice counts once
                    }
                    outcomes.add(null);
                } catch (ProblemException lost) {
                    outcomes.add(lost.code());
                }
            }
            if (accepted.isEmpty()) {
                // each one lost or acknowledged before: those confirmed wait for their earlier acks as ack does
                long confirmed = outcomes.contains(null) ? kernel.log().lastAppended() : 0;
                return new Applied<>(outcomes, confirmed, Applied.NO_LEVELS);
            }
            kernel.log().requireWritable();
            List<String> claims = List.copyOf(accepted);
            Applied<List<ErrorCode>> applied = kernel.commit(new Mutation.AckedAll(claims), () -> {
                long bytes = 0;
                for (String claim : claims) {
                    Delivery gone = deliveries.ack(claim);
                    bytes += Capacity.bytesOf(gone.id(), gone.payload());
                }
                capacity.deliveriesGone(claims.size(), bytes);
                changed();
                return outcomes;
            });
            tally.add(DeliveryEvent.ACKED, claims.size());
            return applied;
        });
    }

    /**
     * Gives the delivery {@code id} leased by {@code claim} back: ready again after {@code retryAfterMillis} (null:
     * the clock's backoff) with one more attempt, or dead if this was its last attempt. Returns it as it is now.
     *
     * @throws ProblemException {@code claim_lost}: the claim holds no lease on a delivery of {@code id} (wrong
     *                            token, expired lease, acknowledged, or redelivered since), and nothing changed;
     *                            {@code invalid_request} for a retryAfter out of range; {@code clock_not_queued}
     */
    Delivery nack(String id, String claim, Long retryAfterMillis) {
        DeliveryRules.requireRetryAfter(retryAfterMillis);
        return deliveryCall(Operation.NACK, tally -> {
            requireQueue();
            long now = kernel.clock().now();
            Delivery leased = deliveries.requireClaim(id, claim, now, false);
            long retryAt = TimeRules.saturatedAdd(now, retryAfterMillis != null ? retryAfterMillis
                    : kernel.settings().retry().backoffMillis(leased.sequence(), leased.attempt() + 1));
            kernel.log().requireWritable();
            Applied<Delivery> nacked = kernel.commit(new Mutation.Nacked(claim, now, retryAt), () -> {
                Delivery after = deliveries.nack(claim, now, retryAt);
                changed();
                return after;
            });
            tally.add(DeliveryEvent.NACKED, 1);
            if (nacked.value().state() == Delivery.State.DEAD) {
                tally.add(DeliveryEvent.DEAD, 1);
            }
            return nacked;
        });
    }

    /**
     * Sends the delivery {@code id} leased by {@code claim} to the dead letters at once with {@code reason}.
     *
     * @throws ProblemException {@code claim_lost} (see {@link #nack}), {@code invalid_request} for a bad reason,
     *                            {@code clock_not_queued}
     */
    Delivery reject(String id, String claim, String reason) {
        DeliveryRules.requireDeadReason(reason);
        return deliveryCall(Operation.NACK, tally -> {
            requireQueue();
            deliveries.requireClaim(id, claim, kernel.clock().now(), false);
            kernel.log().requireWritable();
            Applied<Delivery> rejected = kernel.commit(new Mutation.Rejected(claim, reason), () -> {
                Delivery after = deliveries.reject(claim, reason);
                changed();
                return after;
            });
            tally.add(DeliveryEvent.NACKED, 1);
            tally.add(DeliveryEvent.DEAD, 1);
            return rejected;
        });
    }

    /**
     * The lease {@code claim} holds on the delivery {@code id} ends {@code leaseMillis} from now instead.
     *
     * @throws ProblemException {@code claim_lost} (see {@link #nack}), {@code invalid_request} for a lease out of
     *                            range, {@code clock_not_queued}
     */
    Delivery extend(String id, String claim, long leaseMillis) {
        DeliveryRules.requireLease(leaseMillis);
        return kernel.mutate(Operation.EXTEND, () -> {
            requireQueue();
            long now = kernel.clock().now();
            deliveries.requireClaim(id, claim, now, false);
            kernel.log().requireWritable();
            return kernel.commit(new Mutation.Extended(claim, now, leaseMillis), () -> {
                Delivery extended = deliveries.extend(claim, now, leaseMillis);
                changed();
                return extended;
            });
        });
    }

    /** Every delivery of this clock in any state, by sequence: O(n log n) under the lock, for diagnostics and tests. */
    List<Delivery> allDeliveries() {
        return kernel.serving(() -> {
            List<Delivery> all = new ArrayList<>(deliveries.size());
            for (SavedDelivery saved : deliveries.image()) {
                all.add(saved.delivery());
            }
            all.sort(java.util.Comparator.comparingLong(Delivery::sequence));
            return all;
        });
    }

    /** Up to {@code limit} dead deliveries in sequence order, after {@code afterSequence} (0: from the first). */
    List<Delivery> deadDeliveries(int limit, long afterSequence) {
        TimerRules.requireLimit(limit);
        return kernel.read(Operation.DEAD_LETTERS, () -> {
            requireQueue();
            return deliveries.deadPage(limit, afterSequence);
        });
    }

    /**
     * Makes the dead deliveries of {@code id} (only the one with {@code sequence} when it is not null) ready again,
     * from attempt 1. Returns them as they are now.
     *
     * @throws ProblemException {@code delivery_not_found}, {@code clock_not_queued}
     */
    List<Delivery> redrive(String id, Long sequence) {
        return deliveryCall(Operation.DEAD_LETTERS, tally -> {
            List<Long> sequences = requireDead(id, sequence);
            long now = kernel.clock().now();
            kernel.log().requireWritable();
            Applied<List<Delivery>> applied = kernel.commit(new Mutation.Redriven(now, sequences), () -> {
                List<Delivery> ready = deliveries.redrive(sequences, now);
                changed();
                return ready;
            });
            tally.add(DeliveryEvent.REDRIVEN, sequences.size());
            return applied;
        });
    }

    /**
     * Deletes the dead deliveries of {@code id} (only the one with {@code sequence} when it is not null). Returns
     * them as they were.
     *
     * @throws ProblemException {@code delivery_not_found}, {@code clock_not_queued}
     */
    List<Delivery> deleteDead(String id, Long sequence) {
        return deliveryCall(Operation.DEAD_LETTERS, tally -> {
            List<Long> sequences = requireDead(id, sequence);
            List<Delivery> before = deliveries.deadOf(id, sequence);
            kernel.log().requireWritable();
            Applied<List<Delivery>> applied = kernel.commit(new Mutation.DeadDeleted(sequences), () -> {
                long bytes = deliveries.deleteDead(sequences);
                capacity.deliveriesGone(sequences.size(), bytes);
                changed();
                return before;
            });
            tally.add(DeliveryEvent.DELETED, sequences.size());
            return applied;
        });
    }

    /** How many dead letters one chunk looks at, at most, matching or not: what bounds its time under the lock. */
    static final int CHUNK_SCAN = 16 * DeliveryRules.BULK_CHUNK;

    /** Up to {@code limit} deliveries {@code filter} takes, by sequence after {@code afterSequence}. */
    List<Delivery> list(DeliveryFilter filter, int limit, long afterSequence) {
        TimerRules.requireLimit(limit);
        DeliveryRules.requireFilter(filter);
        return kernel.read(Operation.DEAD_LETTERS, () -> {
            requireQueue();
            return deliveries.list(filter, limit, afterSequence);
        });
    }

    /** How many deliveries {@code filter} takes. */
    long count(DeliveryFilter filter) {
        DeliveryRules.requireFilter(filter);
        return kernel.read(Operation.DEAD_LETTERS, () -> {
            requireQueue();
            return deliveries.count(filter);
        });
    }

    /** One chunk of a bulk redrive: one journal record, under one short hold of the lock. */
    Chunk redriveChunk(DeliveryFilter filter, long afterSequence, int max) {
        return chunkOfDead(filter, afterSequence, max, DeliveryEvent.REDRIVEN, Mutation.Redriven::new,
                (now, sequences) -> deliveries.redrive(sequences, now));
    }

    /** One chunk of a bulk deletion of dead letters, as {@link #redriveChunk}. */
    Chunk deleteChunk(DeliveryFilter filter, long afterSequence, int max) {
        return chunkOfDead(filter, afterSequence, max, DeliveryEvent.DELETED,
                (now, sequences) -> new Mutation.DeadDeleted(sequences),
                (now, sequences) -> capacity.deliveriesGone(sequences.size(), deliveries.deleteDead(sequences)));
    }

    /** What a chunk records for the dead letters of {@code sequences} at {@code now}. */
    @FunctionalInterface
    private interface ChunkRecord {
        Mutation of(long now, List<Long> sequences);
    }

    /** What a chunk then does to them. */
    @FunctionalInterface
    private interface ChunkApply {
        void on(long now, List<Long> sequences);
    }

    private Chunk chunkOfDead(DeliveryFilter filter, long afterSequence, int max, DeliveryEvent event,
                              ChunkRecord record, ChunkApply apply) {
        DeliveryRules.requireFilter(filter);
        return deliveryCall(Operation.DEAD_LETTERS, tally -> {
            requireQueue();
            DeliveryQueue.DeadMatches found = deliveries.deadMatching(filter, afterSequence, max, CHUNK_SCAN);
            List<Long> sequences = found.sequences();
            Chunk chunk = new Chunk(sequences.size(), sequences.size(), found.lastSeen(), found.more());
            if (sequences.isEmpty()) {
                return new Applied<>(chunk, 0, Applied.NO_LEVELS);
            }
            long now = kernel.clock().now();
            kernel.log().requireWritable();
            Applied<Chunk> applied = kernel.commit(record.of(now, sequences), () -> {
                apply.on(now, sequences);
                changed();
                return chunk;
            });
            tally.add(event, sequences.size());
            return applied;
        });
    }

    /**
     * Records and applies a settle when a lease ended or a retry came due by {@code now}; returns the record's
     * position, 0 when there was nothing to settle.
     */
    long settle(long now, DeliveryTally tally) {
        if (!deliveries.needsSettle(now)) {
            return 0;
        }
        kernel.log().requireWritable();
        Applied<DeliveryQueue.Settled> settled = kernel.commit(new Mutation.DeliveriesSettled(now),
                () -> deliveries.settle(now));
        tally.settled(settled.value());
        changed();
        return settled.position();
    }

    /**
     * After any change of the deliveries: refreshes the counts gauges read, wakes long polls when something is
     * ready, and tells the firing thread if a lease or retry now comes due sooner than it knows.
     */
    void changed() {
        counts = countDeliveries(counts.firingHeldBack());
        flowCounts = deliveries.flowControlled() ? new FlowCounts(deliveries.heldBack(), deliveries.keysAtLimit())
                : FlowCounts.NONE;
        if (deliveries.readyCount() > 0) {
            readySignal.signal();
            readyHook.run();
        }
        kernel.tellNextDeadline();
    }

    private DeliveryCounts countDeliveries(boolean heldBack) {
        long oldest = deliveries.oldestReadyAt();
        return new DeliveryCounts(deliveries.readyCount(), deliveries.inFlightCount(), deliveries.waitingCount(),
                deliveries.deadCount(), oldest == Long.MAX_VALUE ? null : oldest, heldBack);
    }

    private void requireQueue() {
        if (!kernel.settings().queues()) {
            throw DeliveryRules.clockNotQueued();
        }
    }

    private List<Long> requireDead(String id, Long sequence) {
        requireQueue();
        List<Delivery> dead = id == null ? List.of() : deliveries.deadOf(id, sequence);
        if (dead.isEmpty()) {
            throw DeliveryRules.deadDeliveryNotFound(id, sequence);
        }
        List<Long> sequences = new ArrayList<>(dead.size());
        for (Delivery delivery : dead) {
            sequences.add(delivery.sequence());
        }
        return sequences;
    }

    /**
     * Runs one delivery call as {@link #mutate} does, handing {@code underLock} a tally of the delivery events it
     * causes, which is reported after the lock is released.
     */
    private <T> T deliveryCall(Operation operation, Function<DeliveryTally, Applied<T>> underLock) {
        DeliveryTally tally = new DeliveryTally();
        T result = kernel.mutate(operation, () -> underLock.apply(tally));
        tally.reportTo(metrics);
        return result;
    }

    /** Delivery events and latenesses one call collected under the lock, reported after it is released. */
    static final class DeliveryTally {
        private final int[] counts = new int[DeliveryEvent.values().length];
        private long[] lateness = new long[0];
        private long[] lags = new long[0];
        int tokensDenied;

        void add(DeliveryEvent event, int count) {
            counts[event.ordinal()] += count;
        }

        void settled(DeliveryQueue.Settled settled) {
            add(DeliveryEvent.EXPIRED, settled.expired());
            add(DeliveryEvent.DEAD, settled.died());
            add(DeliveryEvent.REDELIVERED, settled.readied());
        }

        /** Lateness is wall-clock time: measured only on a system clock (a scaled clock's time is not the wall's). */
        void claimed(List<Delivery> claimed, long now, boolean onWallClock) {
            add(DeliveryEvent.CLAIMED, claimed.size());
            if (onWallClock) {
                lateness = new long[claimed.size()];
                for (int i = 0; i < lateness.length; i++) {
                    lateness[i] = Math.max(0, now - claimed.get(i).readyAt());
                }
            }
        }

        void fired(List<Timer> fired, long wallNow) {
            lags = new long[fired.size()];
            for (int i = 0; i < lags.length; i++) {
                lags[i] = Math.max(0, wallNow - fired.get(i).fireTime());
            }
        }

        void reportTo(StoreMetrics metrics) {
            for (DeliveryEvent event : DeliveryEvent.values()) {
                if (counts[event.ordinal()] > 0) {
                    metrics.deliveries(event, counts[event.ordinal()]);
                }
            }
            for (long millis : lateness) {
                metrics.deliveryLateness(millis);
            }
            for (long millis : lags) {
                metrics.fireLag(millis);
            }
            if (tokensDenied > 0) {
                metrics.flowTokensDenied(tokensDenied);
            }
        }
    }
}
