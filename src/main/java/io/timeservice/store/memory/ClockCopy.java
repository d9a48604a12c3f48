package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.Delivery;
import io.timeservice.model.Limits;

/**
 * What a fork copies of a clock: its time, settings, every pending timer (id, priority, payload, version, sequence)
 * and every delivery, as a {@link RecoveredSnapshot} a fresh clock loads. An in-flight delivery is ready again in
 * the copy from the copy's time on, with its attempt kept: its lease and claim token belong to the source's
 * worker. Reserved ids (the dedupe window) are copied as they are. Recent acknowledgements are not copied (they name the source's claims). Both the live fork and the
 * recovery of its journal record ({@link Mutation.ClockForked}) build the copy here, so they agree; a live fork
 * builds it from a {@link ClockImage} taken under the source's lock (array copies), after releasing the lock.
 *
 * <p>Also the copy's weight against the shared budget: it counts in full, timers and deliveries.
 */
record ClockCopy(RecoveredSnapshot snapshot, long count, long bytes, long deliveries) {

    /** The copy of {@code state}, its sequences continuing after {@code lastSequence}. O(n), needs no lock. */
    static ClockCopy of(ClockImage state, long lastSequence) {
        List<Mutation.Added> timers = new ArrayList<>(state.size());
        long bytes = 0;
        for (int i = 0; i < state.size(); i++) {
            Mutation.Added added = new Mutation.Added(state.timer(i), state.createdAtWallMillis(i));
            timers.add(added);
            bytes += Limits.bytesOf(added.timer().id(), added.timer().payload());
        }
        List<SavedDelivery> deliveries = new ArrayList<>(state.deliveries().size());
        for (SavedDelivery saved : state.deliveries()) {
            Delivery d = saved.delivery();
            bytes += Limits.bytesOf(d.id(), d.payload());
            deliveries.add(d.state() != Delivery.State.IN_FLIGHT ? new SavedDelivery(d, 0)
                    : new SavedDelivery(ClockSnapshot.saved(d, d.sequence(), state.now()), 0));
        }
        // fired through where the source had: timers it held back at the delivery limit stay due in the copy too
        RecoveredSnapshot snapshot = new RecoveredSnapshot(state.now(), lastSequence, lastSequence, timers,
                state.settings(), deliveries, List.of(), state.firedThrough(), state.scaledTime(),
                state.schedules(), state.reservations());
        return new ClockCopy(snapshot, timers.size() + deliveries.size(), bytes, deliveries.size());
    }

    /** The clock a loaded snapshot makes, its timers and deliveries held as the journal record holds them. */
    static ClockCopy of(RecoveredSnapshot snapshot) {
        long bytes = 0;
        for (Mutation.Added added : snapshot.timers()) {
            bytes += Limits.bytesOf(added.timer().id(), added.timer().payload());
        }
        for (SavedDelivery saved : snapshot.deliveries()) {
            bytes += Limits.bytesOf(saved.delivery().id(), saved.delivery().payload());
        }
        return new ClockCopy(snapshot, snapshot.timers().size() + snapshot.deliveries().size(), bytes,
                snapshot.deliveries().size());
    }

    /** What a copy reserves in the shared budget while it is built: known in O(1) under the source's lock. */
    record Weight(long count, long bytes, long deliveries) {
    }

    Weight weight() {
        return new Weight(count, bytes, deliveries);
    }
}
