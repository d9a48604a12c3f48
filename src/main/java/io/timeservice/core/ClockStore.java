package io.timeservice.core;

import java.util.List;

/**
 * The clocks of a store (memory or PostgreSQL), as the web layer uses them. Refusals are
 * {@link SchedulerException}s with the same codes on every store.
 */
public interface ClockStore {

    /** Creates the clock, or finds it with the same settings (and now, when virtual). See {@link Clocks#create}. */
    ClockView.Created create(String name, long now, ClockSettings settings);

    /** @throws SchedulerException {@code clock_not_found} */
    ClockView get(String name);

    /** Up to {@code limit} clocks by name after {@code after}; a clock deleted meanwhile is left out. */
    List<ClockView> list(int limit, String after);

    void delete(String name);
}
