package io.timeservice.store;

import java.util.List;

import io.timeservice.model.ClockChange;
import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.ClockView;
import io.timeservice.model.ProblemException;

/**
 * The clocks of a store (memory or PostgreSQL), as the web layer uses them. Refusals are
 * {@link ProblemException}s with the same codes on every store.
 */
public interface ClockStore {

    /**
     * Creates the clock, or finds it with the same settings (and now, when virtual): an idempotent PUT.
     *
     * @throws ProblemException {@code invalid_id} for a bad name, {@code clock_conflict} for an existing clock with
     *                            other settings, {@code clock_limit} when the store holds its most clocks
     */
    ClockView.Created create(String name, long now, ClockSettings settings);

    /**
     * Creates the clock {@code name} as a copy of the clock {@code source}, taken atomically (no change of the source
     * lands half in the copy): its time and settings, every pending timer with its id, priority, payload, version and
     * place in the firing order, and every delivery (ready, waiting and dead as they are; an in-flight one ready again
     * with its attempt kept, its claim token not copied). Timers added later to either clock fire after the copied
     * ones in both, so the copy and the source fire alike under the same calls. The copy counts in full against the
     * capacity; a crash leaves all of it or none.
     *
     * @throws ProblemException {@code invalid_id} for a bad name, {@code clock_not_found} for a missing source,
     *                            {@code clock_conflict} when {@code name} exists, {@code clock_limit} when the store
     *                            holds its most clocks, {@code capacity_exceeded} when the copy does not fit
     */
    ClockView.Created copy(String name, String source);

    /**
     * The clock {@code name} saved whole ({@link ClockSnapshot}: what a fork copies, in the snapshot's numbering of
     * sequences), taken atomically as a fork takes it; the memory store holds the clock's lock only for array copies
     * and builds the rest after. Its lists are read once, in order, by the caller.
     *
     * @throws ProblemException {@code clock_not_found}
     */
    ClockSnapshot snapshot(String name);

    /**
     * Creates the clock {@code name} from {@code snapshot} (checked by {@link io.timeservice.model.SnapshotRules}
     * already), all of it or nothing: one journal record, or one transaction. Saving it again gives {@code snapshot}
     * but for the name (and, for a system clock, its time), once it is numbered as saved clocks are.
     *
     * @throws ProblemException {@code invalid_id} for a bad name, {@code clock_conflict} when {@code name} exists,
     *                            {@code clock_limit}, {@code capacity_exceeded} when it does not fit in full
     */
    ClockView.Created load(String name, ClockSnapshot snapshot);

    /** @throws ProblemException {@code clock_not_found} */
    ClockView get(String name);

    /**
     * Changes a scaled clock's rate from its time now on: its time is continuous across the change (the new rate runs
     * from where the clock stands), and what comes due later fires at the new rate. Rate 0 freezes the clock.
     *
     * @throws ProblemException {@code clock_not_found}, {@code clock_not_scaled} for a virtual or system clock
     */
    ClockView rerate(String name, ClockRate rate);

    /**
     * Changes the live clock's settings ({@link ClockChange}: pause or resume, retry policy, clock-wide flow limits,
     * push target), at once and durably (journaled, or in one transaction every instance then reads). A paused clock
     * hands out no delivery, a retry neither, until it is resumed; then the held ones go in the clock's ready order.
     * A change that changes nothing succeeds and changes nothing.
     *
     * @throws ProblemException {@code clock_not_found}; {@code invalid_request} ({@link ClockChange#applyTo})
     */
    ClockView change(String name, ClockChange change);

    /** Up to {@code limit} clocks by name after {@code after}; a clock deleted meanwhile is left out. */
    List<ClockView> list(int limit, String after);

    /**
     * Deletes the clock with its timers and deliveries.
     *
     * @throws ProblemException {@code clock_not_found}, {@code clock_undeletable} for the default clock
     */
    void delete(String name);
}
