package io.timeservice.store;

import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockView;
import io.timeservice.model.SchedulerException;

/**
 * The clocks of a store (memory or PostgreSQL), as the web layer uses them. Refusals are
 * {@link SchedulerException}s with the same codes on every store.
 */
public interface ClockStore {

    /**
     * Creates the clock, or finds it with the same settings (and now, when virtual): an idempotent PUT.
     *
     * @throws SchedulerException {@code invalid_id} for a bad name, {@code clock_conflict} for an existing clock with
     *                            other settings, {@code clock_limit} when the store holds its most clocks
     */
    ClockView.Created create(String name, long now, ClockSettings settings);

    /** @throws SchedulerException {@code clock_not_found} */
    ClockView get(String name);

    /** Up to {@code limit} clocks by name after {@code after}; a clock deleted meanwhile is left out. */
    List<ClockView> list(int limit, String after);

    /**
     * Deletes the clock with its timers and deliveries.
     *
     * @throws SchedulerException {@code clock_not_found}, {@code clock_undeletable} for the default clock
     */
    void delete(String name);
}
