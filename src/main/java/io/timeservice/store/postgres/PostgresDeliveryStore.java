package io.timeservice.store.postgres;

import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.Ack;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.DeliveryRules;
import io.timeservice.model.ErrorCode;
import io.timeservice.store.DeliveryStore;

/**
 * The PostgreSQL store's delivery queues behind the web layer. Leases, retries and readiness follow the clock's time
 * and retry policy, as in the memory store ({@link PostgresDeliveries},
 * {@link LeaseReleaser}, {@link PostgresDeadLetters}).
 */
public final class PostgresDeliveryStore implements DeliveryStore {

    private final PostgresStore store;

    public PostgresDeliveryStore(PostgresStore store) {
        this.store = store;
    }

    @Override
    public List<Delivery> claim(String clock, int max, long leaseMillis, long waitMillis) {
        String name = PostgresTimerStore.named(clock); // the mode and input are checked in its transaction
        return shown(store.deliveries().claim(name, max, leaseMillis, waitMillis));
    }

    @Override
    public List<Delivery> claimOf(String clock, long incarnation, int max, long leaseMillis) {
        return shown(store.deliveries().claimOf(PostgresTimerStore.named(clock), incarnation, max, leaseMillis));
    }

    private static List<Delivery> shown(List<ClaimedDelivery> claimed) {
        List<Delivery> shown = new ArrayList<>(claimed.size());
        for (ClaimedDelivery delivery : claimed) {
            shown.add(new Delivery(delivery.id(), delivery.fireTime(), delivery.priority(), delivery.sequence(),
                    delivery.payload(), delivery.attempt(), Delivery.State.IN_FLIGHT, delivery.claim().toString(),
                    delivery.leaseUntil(), 0, delivery.readyAt(), null, delivery.schedule(), delivery.traceContext(),
                    delivery.key()));
        }
        return shown;
    }

    @Override
    public void ack(String clock, String id, String claim) {
        if (!store.deliveries().ack(PostgresTimerStore.named(clock), id, claim)) {
            throw DeliveryRules.claimLost(id);
        }
    }

    @Override
    public List<ErrorCode> ackAll(String clock, List<Ack> acks) {
        return store.deliveries().ackAll(PostgresTimerStore.named(clock), acks);
    }

    @Override
    public Delivery nack(String clock, String id, String claim, Long retryAfterMillis) {
        return held(id, store.deliveries().nack(PostgresTimerStore.named(clock), id, claim, retryAfterMillis));
    }

    @Override
    public Delivery reject(String clock, String id, String claim, String reason) {
        return held(id, store.deliveries().reject(queued(clock), id, claim, reason));
    }

    @Override
    public boolean onReady(ReadyListener listener) {
        store.onReady(listener::ready);
        return false; // notifications can be lost while the listener's connection is down
    }

    @Override
    public Delivery extend(String clock, String id, String claim, long leaseMillis) {
        return held(id, store.deliveries().extend(PostgresTimerStore.named(clock), id, claim, leaseMillis));
    }

    @Override
    public DeliveryCounts counts(String clock) {
        return store.deliveries().counts(queued(clock));
    }

    @Override
    public List<Delivery> dead(String clock, int limit, long afterSequence) {
        return store.deadLetters().dead(queued(clock), limit, afterSequence);
    }

    @Override
    public List<Delivery> redrive(String clock, String id, Long sequence) {
        return store.deadLetters().redrive(queued(clock), id, sequence);
    }

    @Override
    public void deleteDead(String clock, String id, Long sequence) {
        store.deadLetters().deleteDead(queued(clock), id, sequence);
    }

    @Override
    public void endWaits() {
        store.deliveries().endWaits();
    }

    @Override
    public void allowWaits() {
        store.deliveries().allowWaits();
    }

    /**
     * The clock's name, once it is known to queue its fired timers: for the calls that are not on a worker's path
     * (claim, ack, nack and extend check it in their own transaction).
     */
    private String queued(String clock) {
        String name = PostgresTimerStore.named(clock);
        DeliveryRows.requireQueue(store.clocks().get(name));
        return name;
    }

    /** What a nack or extend left: the delivery, or {@code claim_lost} when the claim held none. */
    private static Delivery held(String id, Delivery changed) {
        if (changed == null) {
            throw DeliveryRules.claimLost(id);
        }
        return changed;
    }

    @Override
    public List<Delivery> list(String clock, DeliveryFilter filter, int limit, long afterSequence) {
        return store.deadLetters().list(queued(clock), filter, limit, afterSequence);
    }

    @Override
    public long count(String clock, DeliveryFilter filter) {
        return store.deadLetters().count(queued(clock), filter);
    }

    @Override
    public Chunk redriveChunk(String clock, DeliveryFilter filter, long afterSequence, int max) {
        return store.deadLetters().redriveChunk(queued(clock), filter, afterSequence, max);
    }

    @Override
    public Chunk deleteChunk(String clock, DeliveryFilter filter, long afterSequence, int max) {
        return store.deadLetters().deleteChunk(queued(clock), filter, afterSequence, max);
    }
}
