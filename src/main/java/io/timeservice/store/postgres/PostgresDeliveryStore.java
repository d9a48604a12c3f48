package io.timeservice.store.postgres;

import java.util.ArrayList;
import java.util.List;

import io.timeservice.core.Delivery;
import io.timeservice.core.DeliveryCounts;
import io.timeservice.core.DeliveryStore;
import io.timeservice.core.ErrorCode;
import io.timeservice.core.SchedulerException;
import io.timeservice.core.TimerScheduler;

/**
 * The PostgreSQL store's delivery queues behind the web layer, with the default retry policy (per-clock policies
 * are not stored yet). Leases and retry times are the database's clock (Unix epoch ms), on every clock.
 */
public final class PostgresDeliveryStore implements DeliveryStore {

    private final PostgresStore store;

    public PostgresDeliveryStore(PostgresStore store) {
        this.store = store;
    }

    @Override
    public List<Delivery> claim(String clock, int max, long leaseMillis, long waitMillis) {
        String name = queued(clock);
        List<io.timeservice.store.postgres.Delivery> claimed = store.deliveries().claim(name, max, leaseMillis,
                waitMillis);
        List<Delivery> shown = new ArrayList<>(claimed.size());
        for (io.timeservice.store.postgres.Delivery delivery : claimed) {
            shown.add(new Delivery(delivery.id(), delivery.fireTime(), delivery.priority(), delivery.sequence(),
                    delivery.payload(), delivery.attempt(), Delivery.State.IN_FLIGHT, delivery.claim().toString(),
                    delivery.leaseUntil(), 0, delivery.fireTime(), null));
        }
        return shown;
    }

    @Override
    public void ack(String clock, String id, String claim) {
        if (!store.deliveries().ack(queued(clock), id, claim)) {
            throw claimLost(id);
        }
    }

    @Override
    public List<ErrorCode> ackAll(String clock, List<TimerScheduler.Ack> acks) {
        String name = queued(clock);
        List<ErrorCode> outcomes = new ArrayList<>(acks.size());
        for (TimerScheduler.Ack ack : acks) {
            outcomes.add(store.deliveries().ack(name, ack.id(), ack.claim()) ? null : ErrorCode.CLAIM_LOST);
        }
        return outcomes;
    }

    @Override
    public Delivery nack(String clock, String id, String claim, Long retryAfterMillis) {
        String name = queued(clock);
        if (!store.deliveries().nack(name, id, claim, retryAfterMillis, RetryPolicy.DEFAULT)) {
            throw claimLost(id);
        }
        return now(name, id);
    }

    @Override
    public Delivery extend(String clock, String id, String claim, long leaseMillis) {
        String name = queued(clock);
        if (!store.deliveries().extend(name, id, claim, leaseMillis)) {
            throw claimLost(id);
        }
        return now(name, id);
    }

    @Override
    public DeliveryCounts counts(String clock) {
        return store.deliveries().counts(queued(clock));
    }

    @Override
    public List<Delivery> dead(String clock, int limit, long afterSequence) {
        return shown(store.deliveries().dead(queued(clock), limit, afterSequence));
    }

    @Override
    public List<Delivery> redrive(String clock, String id, Long sequence) {
        return shown(store.deliveries().redrive(queued(clock), id, sequence));
    }

    @Override
    public void deleteDead(String clock, String id, Long sequence) {
        store.deliveries().deleteDead(queued(clock), id, sequence);
    }

    /** The clock's name, once it is known to queue its fired timers. */
    private String queued(String clock) {
        String name = PostgresTimerStore.named(clock);
        if (store.clocks().get(name).delivery() != StoredClock.Delivery.QUEUE) {
            throw new SchedulerException(ErrorCode.CLOCK_NOT_QUEUED, "this clock returns fired timers from advance"
                    + " (delivery \"response\") and has no deliveries");
        }
        return name;
    }

    private Delivery now(String clock, String id) {
        Delivery delivery = store.deliveries().latest(clock, id);
        if (delivery == null) { // acked or deleted by another call since
            throw claimLost(id);
        }
        return delivery;
    }

    private static List<Delivery> shown(List<DeadDelivery> dead) {
        List<Delivery> shown = new ArrayList<>(dead.size());
        for (DeadDelivery delivery : dead) {
            shown.add(new Delivery(delivery.id(), delivery.fireTime(), delivery.priority(), delivery.sequence(),
                    delivery.payload(), delivery.attempts(), Delivery.State.DEAD, null, 0, 0, delivery.diedAt(),
                    "died on attempt " + delivery.attempts()));
        }
        return shown;
    }

    private static SchedulerException claimLost(String id) {
        return new SchedulerException(ErrorCode.CLAIM_LOST, "the claim on delivery " + id
                + " is lost: wrong, expired, or the delivery was acked or nacked");
    }
}
