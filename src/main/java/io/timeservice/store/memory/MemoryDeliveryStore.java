package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.Ack;
import io.timeservice.model.ClockRules;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.DeliveryRules;
import io.timeservice.model.ErrorCode;
import io.timeservice.store.DeliveryStore;

/** The memory store's delivery queues: each call goes to its clock's {@link MemoryClock}. */
public final class MemoryDeliveryStore implements DeliveryStore {

    private final ClockRegistry clocks;

    public MemoryDeliveryStore(ClockRegistry clocks) {
        this.clocks = clocks;
    }

    @Override
    public void endWaits() {
        clocks.endWaits();
    }

    @Override
    public void allowWaits() {
        clocks.allowWaits();
    }

    private MemoryClock scheduler(String clock) {
        return MemoryTimerStore.scheduler(clocks, clock);
    }

    @Override
    public List<Delivery> claim(String clock, int max, long leaseMillis, long waitMillis) {
        return scheduler(clock).claim(max, leaseMillis, waitMillis);
    }

    @Override
    public List<Delivery> claimOf(String clock, long incarnation, int max, long leaseMillis) {
        ClockRegistry.Clock named = clocks.get(clock);
        if (named.number() != incarnation) {
            throw ClockRules.clockRecreated(clock);
        }
        return named.scheduler().claim(max, leaseMillis, 0);
    }

    @Override
    public void ack(String clock, String id, String claim) {
        scheduler(clock).ack(id, claim);
    }

    @Override
    public List<ErrorCode> ackAll(String clock, List<Ack> acks) {
        return scheduler(clock).ackAll(acks);
    }

    @Override
    public Delivery nack(String clock, String id, String claim, Long retryAfterMillis) {
        return scheduler(clock).nack(id, claim, retryAfterMillis);
    }

    @Override
    public Delivery reject(String clock, String id, String claim, String reason) {
        return scheduler(clock).reject(id, claim, reason);
    }

    @Override
    public boolean onReady(ReadyListener listener) {
        clocks.onReady(listener::ready);
        return true; // every change that leaves deliveries ready runs the hook (ClockDeliveries.changed)
    }

    @Override
    public Delivery extend(String clock, String id, String claim, long leaseMillis) {
        return scheduler(clock).extend(id, claim, leaseMillis);
    }

    @Override
    public DeliveryCounts counts(String clock) {
        MemoryClock scheduler = scheduler(clock);
        if (!scheduler.settings().queues()) {
            throw DeliveryRules.clockNotQueued();
        }
        return scheduler.deliveryCounts();
    }

    @Override
    public List<Delivery> dead(String clock, int limit, long afterSequence) {
        return scheduler(clock).deadDeliveries(limit, afterSequence);
    }

    @Override
    public List<Delivery> redrive(String clock, String id, Long sequence) {
        return scheduler(clock).redrive(id, sequence);
    }

    @Override
    public void deleteDead(String clock, String id, Long sequence) {
        scheduler(clock).deleteDead(id, sequence);
    }

    @Override
    public List<Delivery> list(String clock, DeliveryFilter filter, int limit, long afterSequence) {
        return scheduler(clock).listDeliveries(filter, limit, afterSequence);
    }

    @Override
    public long count(String clock, DeliveryFilter filter) {
        return scheduler(clock).countDeliveries(filter);
    }

    @Override
    public Chunk redriveChunk(String clock, DeliveryFilter filter, long afterSequence, int max) {
        return scheduler(clock).redriveChunk(filter, afterSequence, max);
    }

    @Override
    public Chunk deleteChunk(String clock, DeliveryFilter filter, long afterSequence, int max) {
        return scheduler(clock).deleteChunk(filter, afterSequence, max);
    }
}
