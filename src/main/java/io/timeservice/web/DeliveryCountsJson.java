package io.timeservice.web;

import io.timeservice.model.DeliveryCounts;

/**
 * A queueing clock's deliveries by state.
 *
 * @param oldestReadyAt  when the longest-ready delivery became ready (the clock's milliseconds), or null when none is
 * @param firingHeldBack true while due timers stay pending because the deliveries hold their limit
 *                       ({@code timeservice.deliveries.max})
 */
record DeliveryCountsJson(int ready, int inFlight, int waiting, int dead, Long oldestReadyAt,
                          boolean firingHeldBack) {

    static DeliveryCountsJson of(DeliveryCounts counts) {
        return new DeliveryCountsJson(counts.ready(), counts.inFlight(), counts.waiting(), counts.dead(),
                counts.oldestReadyAt(), counts.firingHeldBack());
    }
}
