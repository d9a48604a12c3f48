package io.timeservice.store;

import java.util.List;

import io.timeservice.model.Ack;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.ErrorCode;
import io.timeservice.store.StoreMetrics.Operation;

/**
 * Reports every call of a delivery store to {@link StoreMetrics} under the operation the memory store's
 * scheduler reports it as. The delivery events themselves are reported where they happen
 * (the store), since only the store knows, e.g., whether an ack was new or a repeat; so are
 * claims, timed per look.
 */
public final class MeasuredDeliveryStore implements DeliveryStore {

    private final DeliveryStore store;
    private final StoreMetrics metrics;

    public MeasuredDeliveryStore(DeliveryStore store, StoreMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    /** Not timed here: the store times each look of a long poll, as the memory store does. */
    @Override
    public List<Delivery> claim(String clock, int max, long leaseMillis, long waitMillis) {
        return store.claim(clock, max, leaseMillis, waitMillis);
    }

    @Override
    public List<Delivery> claimOf(String clock, long incarnation, int max, long leaseMillis) {
        return store.claimOf(clock, incarnation, max, leaseMillis);
    }

    @Override
    public void ack(String clock, String id, String claim) {
        MeasuredCall.measure(metrics, Operation.ACK, () -> store.ack(clock, id, claim));
    }

    @Override
    public List<ErrorCode> ackAll(String clock, List<Ack> acks) {
        return MeasuredCall.measure(metrics, Operation.ACK, () -> store.ackAll(clock, acks));
    }

    @Override
    public Delivery nack(String clock, String id, String claim, Long retryAfterMillis) {
        return MeasuredCall.measure(metrics, Operation.NACK, () -> store.nack(clock, id, claim, retryAfterMillis));
    }

    @Override
    public Delivery reject(String clock, String id, String claim, String reason) {
        return MeasuredCall.measure(metrics, Operation.NACK, () -> store.reject(clock, id, claim, reason));
    }

    @Override
    public boolean onReady(ReadyListener listener) {
        return store.onReady(listener);
    }

    @Override
    public Delivery extend(String clock, String id, String claim, long leaseMillis) {
        return MeasuredCall.measure(metrics, Operation.EXTEND, () -> store.extend(clock, id, claim, leaseMillis));
    }

    @Override
    public DeliveryCounts counts(String clock) {
        return store.counts(clock);
    }

    @Override
    public List<Delivery> dead(String clock, int limit, long afterSequence) {
        return MeasuredCall.measure(metrics, Operation.DEAD_LETTERS, () -> store.dead(clock, limit, afterSequence));
    }

    @Override
    public List<Delivery> redrive(String clock, String id, Long sequence) {
        return MeasuredCall.measure(metrics, Operation.DEAD_LETTERS, () -> store.redrive(clock, id, sequence));
    }

    @Override
    public void deleteDead(String clock, String id, Long sequence) {
        MeasuredCall.measure(metrics, Operation.DEAD_LETTERS, () -> store.deleteDead(clock, id, sequence));
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
    public List<Delivery> list(String clock, DeliveryFilter filter, int limit, long afterSequence) {
        return MeasuredCall.measure(metrics, Operation.DEAD_LETTERS,
                () -> store.list(clock, filter, limit, afterSequence));
    }

    @Override
    public long count(String clock, DeliveryFilter filter) {
        return MeasuredCall.measure(metrics, Operation.DEAD_LETTERS, () -> store.count(clock, filter));
    }

    @Override
    public Chunk redriveChunk(String clock, DeliveryFilter filter, long afterSequence, int max) {
        return MeasuredCall.measure(metrics, Operation.DEAD_LETTERS,
                () -> store.redriveChunk(clock, filter, afterSequence, max));
    }

    @Override
    public Chunk deleteChunk(String clock, DeliveryFilter filter, long afterSequence, int max) {
        return MeasuredCall.measure(metrics, Operation.DEAD_LETTERS,
                () -> store.deleteChunk(clock, filter, afterSequence, max));
    }
}
