package io.timeservice.push;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.Ack;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.ErrorCode;
import io.timeservice.store.DeliveryStore;

/** A delivery store that tells a test of each settlement (ack, nack, reject) once the store made it. */
final class SettleRecorder implements DeliveryStore {

    /** One settlement: what was called, for which delivery id and claim. */
    record Settled(String call, String id, Delivery after) {
    }

    private final DeliveryStore store;
    private final BlockingQueue<Settled> settled = new LinkedBlockingQueue<>();
    /** Each claim the store refused: the clock's name and the code. */
    final java.util.Queue<String> refusedClaims = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** The pusher's claims the store answered (empty ones too). */
    final java.util.concurrent.atomic.AtomicInteger claimsOf = new java.util.concurrent.atomic.AtomicInteger();
    /** The names of the threads that acknowledged. */
    final java.util.Set<String> ackingThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();

    SettleRecorder(DeliveryStore store) {
        this.store = store;
    }

    /** The next settlement, waiting up to 20 s. */
    Settled next() throws InterruptedException {
        Settled next = settled.poll(20, TimeUnit.SECONDS);
        if (next == null) {
            throw new AssertionError("no push was settled within 20 s");
        }
        return next;
    }

    @Override
    public List<Delivery> claim(String clock, int max, long leaseMillis, long waitMillis) {
        return store.claim(clock, max, leaseMillis, waitMillis);
    }

    @Override
    public List<Delivery> claimOf(String clock, long incarnation, int max, long leaseMillis) {
        try {
            List<Delivery> claimed = store.claimOf(clock, incarnation, max, leaseMillis);
            claimsOf.incrementAndGet();
            return claimed;
        } catch (io.timeservice.model.ProblemException refused) {
            refusedClaims.add(clock + ": " + refused.code().code());
            throw refused;
        }
    }

    @Override
    public void ack(String clock, String id, String claim) {
        store.ack(clock, id, claim);
        settled.add(new Settled("ack", id, null));
    }

    @Override
    public List<ErrorCode> ackAll(String clock, List<Ack> acks) {
        ackingThreads.add(Thread.currentThread().getName());
        List<ErrorCode> outcomes = store.ackAll(clock, acks);
        for (int i = 0; i < acks.size(); i++) {
            settled.add(new Settled(outcomes.get(i) == null ? "ack" : "ack:" + outcomes.get(i).code(),
                    acks.get(i).id(), null));
        }
        return outcomes;
    }

    @Override
    public Delivery nack(String clock, String id, String claim, Long retryAfterMillis) {
        Delivery after = store.nack(clock, id, claim, retryAfterMillis);
        settled.add(new Settled("nack", id, after));
        return after;
    }

    @Override
    public Delivery reject(String clock, String id, String claim, String reason) {
        Delivery after = store.reject(clock, id, claim, reason);
        settled.add(new Settled("reject", id, after));
        return after;
    }

    @Override
    public boolean onReady(ReadyListener listener) {
        return store.onReady(listener);
    }

    @Override
    public Delivery extend(String clock, String id, String claim, long leaseMillis) {
        return store.extend(clock, id, claim, leaseMillis);
    }

    @Override
    public DeliveryCounts counts(String clock) {
        return store.counts(clock);
    }

    @Override
    public List<Delivery> dead(String clock, int limit, long afterSequence) {
        return store.dead(clock, limit, afterSequence);
    }

    @Override
    public List<Delivery> redrive(String clock, String id, Long sequence) {
        return store.redrive(clock, id, sequence);
    }

    @Override
    public void deleteDead(String clock, String id, Long sequence) {
        store.deleteDead(clock, id, sequence);
    }

    @Override
    public void endWaits() {
        store.endWaits();
    }

    @Override
    public void allowWaits() {
        store.allowWaits();
    }

    @Override
    public List<Delivery> list(String clock, io.timeservice.model.DeliveryFilter filter, int limit,
                               long afterSequence) {
        return store.list(clock, filter, limit, afterSequence);
    }

    @Override
    public long count(String clock, io.timeservice.model.DeliveryFilter filter) {
        return store.count(clock, filter);
    }

    @Override
    public Chunk redriveChunk(String clock, io.timeservice.model.DeliveryFilter filter, long afterSequence, int max) {
        return store.redriveChunk(clock, filter, afterSequence, max);
    }

    @Override
    public Chunk deleteChunk(String clock, io.timeservice.model.DeliveryFilter filter, long afterSequence, int max) {
        return store.deleteChunk(clock, filter, afterSequence, max);
    }
}
