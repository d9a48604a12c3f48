package io.timeservice.store.memory;

import java.util.Locale;
import java.util.function.LongSupplier;

import io.timeservice.model.ClockChange;
import io.timeservice.model.ClockSettings;
import io.timeservice.store.memory.time.TimeSource;

/**
 * One memory clock's life apart from its timers and deliveries: the settings it starts with or is given at start-up,
 * its recovery from a snapshot and journal ({@link ClockRecovery}), the journal it then appends to, and its deletion.
 * The PostgreSQL store keeps the same in {@code PostgresClockRegistry} and {@code ClockRows}.
 *
 * <p>Not thread-safe by itself: every method takes the clock's lock through its {@link ClockKernel}, and changes
 * are journaled first as every other change of the clock.
 */
final class ClockLifecycle {

    private final ClockKernel kernel;
    private final LongSupplier wallClockMillis;
    private final ClockDeliveries clockDeliveries;
    private final ClockScheduleCalls schedules;
    private final ClockFiring firing;

    ClockLifecycle(ClockKernel kernel, LongSupplier wallClockMillis, ClockDeliveries clockDeliveries,
                   ClockScheduleCalls schedules, ClockFiring firing) {
        this.kernel = kernel;
        this.wallClockMillis = wallClockMillis;
        this.clockDeliveries = clockDeliveries;
        this.schedules = schedules;
        this.firing = firing;
    }

    /**
     * Sets a fresh clock's settings and the time source they call for: before serving, when a clock is created or
     * recovered.
     */
    void configure(ClockSettings clockSettings, TimeSource timeSource) {
        kernel.lock().run(() -> {
            kernel.useSettings(clockSettings);
            kernel.deliveries().settings(clockSettings);
            kernel.useClock(timeSource);
        });
    }

    /**
     * Gives the {@code default} clock the settings its configuration asks for at start-up, journaled. A new mode
     * needs an empty clock (no timer, no delivery), whose time starts again: the wall clock's, or 0.
     *
     * @throws IllegalStateException when the mode would change while the clock holds timers or deliveries
     */
    void reconfigure(ClockSettings next) {
        Applied<Void> applied = kernel.serving(() -> {
            ClockSettings settings = kernel.settings();
            if (next.equals(settings)) {
                return new Applied<>(null, 0, Applied.NO_LEVELS);
            }
            int timers = kernel.heap().size();
            int deliveries = kernel.deliveries().size();
            if (next.mode() != settings.mode() && (timers > 0 || deliveries > 0)) {
                throw new IllegalStateException("the default clock is "
                        + settings.mode().name().toLowerCase(Locale.ROOT) + " and holds " + timers + " timers and "
                        + deliveries + " deliveries; it can"
                        + " become " + next.mode().name().toLowerCase(Locale.ROOT) + " (timeservice.clock.mode)"
                        + " only while empty. Start with the old mode and drain it, or start on a new data-dir");
            }
            kernel.log().requireWritable();
            return kernel.commit(new Mutation.ClockConfigured(next), () -> {
                if (next.mode() != settings.mode()) {
                    kernel.useClock(TimeSource.fresh(next, wallClockMillis));
                }
                kernel.useSettings(next);
                kernel.deliveries().settings(next);
                clockDeliveries.changed();
                return null;
            });
        });
        kernel.log().awaitDurable(applied.position());
    }

    /**
     * Changes the live clock's settings ({@link ClockChange}), journaled first: a pause holds its ready deliveries back
     * from the next claim on, a resume wakes long polls and the pusher, a retry policy applies to the next failed
     * attempt, clock-wide flow limits to the next claim. A change that changes nothing journals nothing.
     *
     * @throws io.timeservice.model.ProblemException {@code invalid_request} ({@link ClockChange#applyTo}),
     *                                               {@code storage_unavailable}
     */
    ClockSettings change(ClockChange change) {
        Applied<ClockSettings> applied = kernel.serving(() -> {
            ClockSettings settings = kernel.settings();
            ClockSettings next = change.applyTo(settings);
            if (next.equals(settings)) {
                return new Applied<>(settings, 0, Applied.NO_LEVELS);
            }
            kernel.log().requireWritable();
            long now = kernel.clock().now();
            return kernel.commit(new Mutation.ClockChanged(next, now), () -> {
                kernel.useSettings(next);
                kernel.deliveries().change(next, now);
                clockDeliveries.changed(); // a resumed clock hands out again: wake long polls and the pusher
                return next;
            });
        });
        kernel.log().awaitDurable(applied.position());
        return applied.value();
    }

    /**
     * Starts recording every accepted mutation into {@code mutationLog}. Call once, after recovery and before
     * serving.
     */
    void attachLog(MutationLog mutationLog) {
        kernel.lock().run(() -> {
            kernel.attachLog(mutationLog);
            renewLeasesAfterRestart();
        });
    }

    /**
     * After a restart, every lease of a system clock that was in flight at the crash starts again for its full
     * length, measured from now: the worker that held it may still finish it, and if it does not, the delivery comes
     * back a full lease after the restart. Journaled, so a later recovery replays the same lease ends.
     */
    private void renewLeasesAfterRestart() {
        TimeSource clock = kernel.clock();
        DeliveryQueue deliveries = kernel.deliveries();
        if (clock.isVirtual() || deliveries.inFlightCount() == 0 || kernel.log().failed()) {
            return;
        }
        long now = clock.now();
        kernel.commit(new Mutation.LeasesRenewed(now), () -> deliveries.renewLeases(now));
        clockDeliveries.changed();
    }

    /**
     * Starts recovering a fresh clock: loads {@code snapshot} (if any) with an O(n) bottom-up heapify; the caller
     * replays the journal's records into the returned recovery, on one thread, then calls {@link #finishRecovery}.
     * Nothing is served in between.
     */
    ClockRecovery beginRecovery(RecoveredSnapshot snapshot, long firstSequence) {
        return kernel.lock().call(() -> {
            if (kernel.heap().size() != 0 || kernel.deliveries().size() != 0 || kernel.sequences().last() != 0
                    || kernel.log() != MutationLog.NONE) {
                throw new IllegalStateException("recover needs a fresh scheduler");
            }
            ClockRecovery recovery = new ClockRecovery(kernel.heap(), kernel.clock(), kernel.deliveries(),
                    kernel.settings(), mode -> TimeSource.fresh(mode, wallClockMillis), schedules,
                    kernel.reservations());
            recovery.startAfter(firstSequence);
            recovery.load(snapshot);
            return recovery;
        });
    }

    /** Takes over what {@code recovery} (from {@link #beginRecovery}) rebuilt. */
    void finishRecovery(ClockRecovery recovery) {
        kernel.lock().run(() -> {
            kernel.useClock(recovery.clock());
            kernel.useSettings(recovery.settings());
            kernel.reservations().countTimeFrom(() -> kernel.clock().now());
            kernel.capacity().recovered(kernel.heap().size(), recovery.pendingBytes());
            kernel.capacity().recoveredDeliveries(kernel.deliveries().size(), kernel.deliveries().bytes());
            clockDeliveries.recount(false);
            kernel.sequences().recovered(recovery.lastSequence(), recovery.reservedSequences());
            schedules.recovered();
        });
    }

    /**
     * A new clock's sequences start after {@code floor} (the highest sequence any deleted clock may have issued),
     * so no entity tag of a deleted clock matches a timer of a clock re-created under its name. Call before serving.
     */
    void startSequencesAfter(long floor) {
        kernel.lock().run(() -> kernel.sequences().startAfter(floor));
    }

    /**
     * Deletes the clock: journals it, gives its pending timers' share of the budget back and refuses every later
     * call with {@code clock_not_found}. Returns the highest sequence it may have issued.
     */
    long delete(String name) {
        Applied<Long> applied = kernel.serving(() -> {
            kernel.log().requireWritable();
            return kernel.commit(new Mutation.ClockDeleted(), () -> {
                kernel.capacity().removedAll(kernel.heap().size());
                kernel.heap().clear();
                schedules.dropAll();
                clockDeliveries.drop();
                kernel.reservations().clear();
                kernel.deleted(name);
                firing.forget(); // the firing thread must not keep a deleted clock until its old deadline
                clockDeliveries.wakeWaiters(); // long polls look again and hear clock_not_found
                return kernel.sequences().highestPossible();
            });
        });
        kernel.log().awaitDurable(applied.position());
        return applied.value();
    }
}
