package io.timeservice.store;

import java.util.List;

import io.timeservice.model.Ack;
import io.timeservice.model.BulkOutcome;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.DeliveryRules;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;

/**
 * The delivery queues of a store's clocks: the port both stores implement and the web layer calls ({@code null}
 * names the default clock). A fired timer of a queueing clock becomes a delivery: ready, then leased to one claimer
 * (in flight) until it is acknowledged, given back (nack), or its lease ends; a delivery out of attempts is dead until
 * redriven or deleted. Every refusal is a {@link ProblemException} with the same code on every store, and a refused
 * call changes nothing; a clock that answers fired timers from advance refuses every call with
 * {@code clock_not_queued}.
 */
public interface DeliveryStore {

    /**
     * Leases up to {@code max} ready deliveries for {@code leaseMillis}, longest-ready first (first attempts in firing
     * order), each with its own claim token. With {@code waitMillis > 0} and nothing ready, waits until something
     * becomes ready or the wait ends (a long poll), holding no lock or connection.
     *
     * @throws ProblemException {@code invalid_limit}, {@code invalid_request} (lease or wait out of range), in
     *                            the order {@link io.timeservice.model.DeliveryRules#requireClaim} checks them
     */
    List<Delivery> claim(String clock, int max, long leaseMillis, long waitMillis);

    /**
     * Claims as {@link #claim} does, without waiting, from the clock {@code clock} only while it is the incarnation
     * {@code incarnation} ({@link io.timeservice.model.ClockView#incarnation}): the pusher's claim, so that deliveries
     * of a clock deleted and created again under its name are never sent with the settings read of the one before.
     *
     * @throws ProblemException {@code clock_not_found} also when the clock of that name is another incarnation;
     *                            otherwise as {@link #claim}
     */
    List<Delivery> claimOf(String clock, long incarnation, int max, long leaseMillis);

    /**
     * Acknowledges the delivery {@code id} leased by {@code claim}: it leaves the queue for good. Acknowledging a
     * recently acknowledged claim again succeeds and changes nothing.
     *
     * @throws ProblemException {@code claim_lost}: the claim holds no lease on a delivery of {@code id}
     */
    void ack(String clock, String id, String claim);

    /** Each ack decided on its own, as {@link #ack} decides it, in order: null for acked, else why not. */
    List<ErrorCode> ackAll(String clock, List<Ack> acks);

    /**
     * Gives the delivery back: ready again after {@code retryAfterMillis} (null: the clock's backoff) with one more
     * attempt, or dead if this was its last. Returns it as it is now.
     *
     * @throws ProblemException {@code claim_lost}, {@code invalid_request} for a retryAfter out of range
     */
    Delivery nack(String clock, String id, String claim, Long retryAfterMillis);

    /**
     * Sends the delivery leased by {@code claim} to the dead letters at once, whatever attempts it has left (a push
     * target answered 410 Gone). Returns it as it is now: dead, with {@code reason}.
     *
     * @throws ProblemException {@code claim_lost}, {@code invalid_request} for a reason that
     *                            {@link io.timeservice.model.DeliveryRules#requireDeadReason} refuses
     */
    Delivery reject(String clock, String id, String claim, String reason);

    /**
     * Tells {@code listener} the name of each clock of which deliveries may have become ready, from now on (replacing
     * an earlier listener). It is called on the thread that made them ready, maybe under a clock's lock: it must only
     * take note and return. A store may also miss some (PostgreSQL notifications can be lost): a listener that must
     * not miss one also looks by itself now and then.
     *
     * @return whether every change that leaves deliveries ready is told (the memory store), so that a listener need
     *         not look by itself; false when some may be missed (PostgreSQL)
     */
    boolean onReady(ReadyListener listener);

    /** Hears of clocks with deliveries that may have become ready; see {@link #onReady}. */
    @FunctionalInterface
    interface ReadyListener {
        void ready(String clock);

        ReadyListener NONE = clock -> { };
    }

    /**
     * The lease ends {@code leaseMillis} from now instead.
     *
     * @throws ProblemException {@code claim_lost}, {@code invalid_request} for a lease out of range
     */
    Delivery extend(String clock, String id, String claim, long leaseMillis);

    DeliveryCounts counts(String clock);

    /** The dead deliveries after {@code afterSequence}, by sequence, at most {@code limit}. */
    List<Delivery> dead(String clock, int limit, long afterSequence);

    /**
     * Makes the dead deliveries of {@code id} (only the one with {@code sequence} when it is not null) ready again,
     * from attempt 1; returns them as they are now.
     *
     * @throws ProblemException {@code delivery_not_found}
     */
    List<Delivery> redrive(String clock, String id, Long sequence);

    /** Deletes the dead deliveries of {@code id} (or the one with {@code sequence}). @throws ProblemException {@code delivery_not_found} */
    void deleteDead(String clock, String id, Long sequence);

    /**
     * Up to {@code limit} of the clock's deliveries that {@code filter} takes, in sequence order after
     * {@code afterSequence} (the firing order of their timers). Each shows its attempt, an in-flight one its lease
     * end, a waiting one its retry time, a dead one its reason.
     *
     * @throws ProblemException {@code invalid_limit} below 1, {@code invalid_request} for a filter that
     *                            {@link DeliveryRules#requireFilter} refuses, {@code clock_not_queued}
     */
    List<Delivery> list(String clock, DeliveryFilter filter, int limit, long afterSequence);

    /**
     * How many of the clock's deliveries {@code filter} takes: what a bulk action would match now (the console
     * confirms it first). O(n) in the deliveries of that state.
     *
     * @throws ProblemException as {@link #list}
     */
    long count(String clock, DeliveryFilter filter);

    /**
     * One chunk of a bulk redrive: the dead letters {@code filter} takes after {@code afterSequence}, at most
     * {@code max} of them, are ready again from attempt 1, all at once (one journal record or one transaction).
     *
     * @throws ProblemException as {@link #list}
     */
    Chunk redriveChunk(String clock, DeliveryFilter filter, long afterSequence, int max);

    /** One chunk of a bulk deletion of dead letters, as {@link #redriveChunk}. */
    Chunk deleteChunk(String clock, DeliveryFilter filter, long afterSequence, int max);

    /**
     * What one chunk did: {@code matched} dead letters matched, {@code changed} were changed; the next chunk starts
     * after {@code lastSequence}, and {@code more} says whether one may find more.
     */
    record Chunk(int matched, int changed, long lastSequence, boolean more) {
    }

    /**
     * Redrives every dead letter {@code filter} takes, {@value DeliveryRules#BULK_CHUNK} at a time in sequence order:
     * each chunk is atomic, the whole is not (a crash or an error between chunks leaves the earlier chunks done, and
     * repeating the call does the rest). Idempotent: a redriven delivery is no longer dead, so a repeat leaves it be.
     */
    default BulkOutcome redriveAllDead(String clock, DeliveryFilter filter) {
        return inChunks(filter, (after, max) -> redriveChunk(clock, filter, after, max));
    }

    /** Deletes every dead letter {@code filter} takes, in chunks, as {@link #redriveAllDead} redrives them. */
    default BulkOutcome deleteAllDead(String clock, DeliveryFilter filter) {
        return inChunks(filter, (after, max) -> deleteChunk(clock, filter, after, max));
    }

    private static BulkOutcome inChunks(DeliveryFilter filter, ChunkCall call) {
        DeliveryRules.requireFilter(filter);
        if (filter.state() != Delivery.State.DEAD) {
            throw DeliveryRules.bulkOnDeadOnly();
        }
        BulkOutcome outcome = BulkOutcome.NONE;
        long after = 0;
        Chunk chunk;
        do {
            chunk = call.next(after, DeliveryRules.BULK_CHUNK);
            outcome = outcome.plus(chunk.matched(), chunk.changed());
            after = chunk.lastSequence();
        } while (chunk.more());
        return outcome;
    }

    /** The next chunk after a sequence. */
    @FunctionalInterface
    interface ChunkCall {
        Chunk next(long afterSequence, int max);
    }
    /**
     * Ends every long poll of every clock now, and every later one at once, until {@link #allowWaits}: the service is
     * stopping, and a graceful shutdown should not wait out the polls. A claim still takes what is ready.
     */
    void endWaits();

    /** Lets long polls wait again after {@link #endWaits}: the service runs again (a stopped context restarted). */
    void allowWaits();
}
