package io.timeservice.metrics;

import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.time.FiringLoop;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code firing} health component: UP while the thread that fires system clocks runs, with its lag (wall now
 * minus the earliest deadline it has not taken, 0 when nothing is overdue) and the clocks whose due timers are held
 * back because the deliveries hold {@code timeservice.deliveries.max}: still UP (nothing is lost, the timers stay
 * pending and fire once workers acknowledge), but it says so. DOWN while some clock's firing rounds are refused
 * ({@code storage_unavailable}: journal back-pressure; they are tried again with backoff, and the lag grows), and
 * once the thread has stopped: no system clock fires until restart.
 *
 * <p>Not in the {@code readiness} group: with the thread stopped every request still works (adds, claims, acks of
 * what is in flight, every virtual clock), and one instance owns its data directory, so routing traffic away would
 * turn "system clocks stop firing" into "nothing works". A restart is the fix, and, as for a journal failure, it is
 * the operator's decision (the TimeServiceFiringStopped alert), so it is not in liveness either. Reads no scheduler
 * lock: the delivery counts are each clock's volatile snapshot.
 */
public class FiringHealthIndicator implements HealthIndicator {

    private final ClockRegistry clocks;
    private final FiringLoop firing;

    public FiringHealthIndicator(ClockRegistry clocks, FiringLoop firing) {
        this.clocks = clocks;
        this.firing = firing;
    }

    @Override
    public Health health() {
        if (!firing.isAlive()) {
            return Health.down()
                    .withDetail("thread", "stopped: no system clock fires until the service is restarted")
                    .withDetail("lastLookWallMillis", firing.lastLookWallMillis())
                    .build();
        }
        int refusing = firing.refusingClocks();
        if (refusing > 0) {
            return Health.down()
                    .withDetail("thread", "running")
                    .withDetail("lagMillis", firing.lagMillis())
                    .withDetail("refusedClocks", refusing)
                    .withDetail("refused", "the firing rounds of " + refusing + " clock(s) are refused"
                            + " (storage_unavailable: the journal cannot keep up, or has stopped); their timers,"
                            + " lease ends and retries wait, and the rounds are tried again with backoff")
                    .build();
        }
        int heldBack = 0;
        for (ClockRegistry.Clock clock : clocks.all()) {
            if (clock.scheduler().deliveryCounts().firingHeldBack()) {
                heldBack++;
            }
        }
        Health.Builder health = Health.up()
                .withDetail("thread", "running")
                .withDetail("lagMillis", firing.lagMillis())
                .withDetail("heldBackClocks", heldBack);
        if (heldBack > 0) {
            health.withDetail("heldBack", "due timers of " + heldBack + " clock(s) stay pending: the deliveries of"
                    + " all clocks hold timeservice.deliveries.max (" + clocks.budget().maxDeliveries() + "); they"
                    + " fire as deliveries are acknowledged or deleted");
        }
        return health.build();
    }
}
