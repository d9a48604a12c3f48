package io.timeservice.model;


/**
 * One clock's deliveries by state, as of its last change: read by gauges and health without the scheduler lock.
 *
 * @param oldestReadyAt when the longest-ready delivery became ready (clock milliseconds), or null when none is
 * @param firingHeldBack whether due timers stay pending because the deliveries hold their limit
 */
public record DeliveryCounts(int ready, int inFlight, int waiting, int dead, Long oldestReadyAt,
                             boolean firingHeldBack) {

    public static final DeliveryCounts NONE = new DeliveryCounts(0, 0, 0, 0, null, false);

    public int total() {
        return ready + inFlight + waiting + dead;
    }
}
