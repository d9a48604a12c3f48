package io.timeservice.store;

import java.util.Map;

import io.timeservice.model.ProblemException;

/**
 * The answers kept for {@code Idempotency-Key}s (draft-ietf-httpapi-idempotency-key-header), per clock and caller.
 * A request with a key first {@link #begin}s it: the first runs (and holds the key while it runs), a repeat of the
 * same request gets the kept answer, another request with the key is refused. The first then {@link #keep}s its
 * answer, or {@link #release}s the key when its answer is not to be kept (a failure of the service), so that a retry
 * runs again. Kept answers expire {@code retention} after they were kept; a key held by a request that never
 * finished (its process died) is free again after {@link io.timeservice.model.IdempotencyRules#RUNNING_LEASE}.
 *
 * <p>Several instances on one PostgreSQL database agree: of two first requests racing one key, exactly one runs,
 * the other is refused as in use or gets the kept answer.
 */
public interface IdempotencyStore {

    /**
     * Starts the request {@code fingerprint} under {@code key}.
     *
     * @return {@link Begun.Run} when this request is the first and must run, {@link Begun.Replay} with the kept
     *         answer when it repeats a request that answered already
     * @throws ProblemException {@code idempotency_key_in_use} while the first request runs,
     *                          {@code idempotency_key_reused} when the key was sent with another request,
     *                          {@code idempotency_key_limit} when the store holds its most keys,
     *                          {@code storage_unavailable} when the store cannot answer
     */
    Begun begin(IdempotencyKey key, String fingerprint);

    /**
     * Keeps the answer of the request {@code run} began for the store's retention; does nothing when its hold on the
     * key was lost.
     */
    void keep(IdempotencyKey key, Begun.Run run, KeptAnswer answer);

    /** As {@link #keep(IdempotencyKey, Begun.Run, KeptAnswer)}, kept for {@code retention} instead. */
    void keep(IdempotencyKey key, Begun.Run run, KeptAnswer answer, java.time.Duration retention);

    /** Forgets the key {@code run} holds without keeping an answer, so that a retry runs again. */
    void release(IdempotencyKey key, Begun.Run run);

    /** Deletes what has expired; returns how many keys it deleted. */
    int purge();

    /** The keys held (kept answers and running requests), per clock; no clock with none. */
    Map<String, Long> heldByClock();

    /** How many repeats this store (this instance, for PostgreSQL) answered with a kept answer. */
    long replays();

    /** What {@link #begin} decided. */
    sealed interface Begun {

        /** This request runs; {@code owner} names its hold on the key. */
        record Run(long owner) implements Begun {
        }

        /** This request repeats one that answered: answer this again. */
        record Replay(KeptAnswer answer) implements Begun {
        }
    }
}
