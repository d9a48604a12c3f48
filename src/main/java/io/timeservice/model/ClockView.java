package io.timeservice.model;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One clock as the API describes it, read from whichever store holds it.
 *
 * @param createdAtWallMillis wall-clock epoch milliseconds of the creation; 0 for {@code default}
 * @param deletesAt           when an idle clock is deleted (wall-clock epoch ms), or null when it is not
 * @param deliveries          the deliveries by state for a clock that queues them, else null
 * @param schedules           how many schedules the clock has (active, paused and done: every one it lists)
 * @param incarnation         which clock of this name it is: another for a clock deleted and created again under the
 *                            name (the memory store's clock number, PostgreSQL's {@code clocks.incarnation}); never
 *                            shown by the API. The pusher claims by it, so a clock's deliveries are never pushed with
 *                            the settings of a clock of the same name before it
 */
public record ClockView(String name, QueueStatus status, ClockSettings settings, long createdAtWallMillis,
                        Long deletesAt, DeliveryCounts deliveries, int schedules, long incarnation) {

    /** Each of a page of clocks described by {@code view}, leaving out one deleted between the listing and its view. */
    public static <C> List<ClockView> ofEach(List<C> page, Function<C, ClockView> view) {
        List<ClockView> views = new ArrayList<>(page.size());
        for (C clock : page) {
            try {
                views.add(view.apply(clock));
            } catch (ProblemException refused) {
                if (refused.code() != ErrorCode.CLOCK_NOT_FOUND) {
                    throw refused;
                }
            }
        }
        return views;
    }

    /** What a create did: the clock, and whether it is new (201) or was there with these settings (200). */
    public record Created(ClockView clock, boolean created) {
    }
}
