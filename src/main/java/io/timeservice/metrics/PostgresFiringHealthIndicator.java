package io.timeservice.metrics;

import io.timeservice.store.postgres.PostgresFiringLoop;
import io.timeservice.store.postgres.PostgresStore;
import io.timeservice.store.postgres.StoreSample;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code firing} health component on the PostgreSQL store: UP while this instance's firing loop runs, with how
 * late its last look was and whether its looks fail (the database is away: it tries again by itself, and the
 * {@code store} component is DOWN meanwhile). DOWN once the thread has stopped: this instance fires nothing until
 * restart, though the other instances' loops still fire every clock. Still UP, as on the memory store, while clocks
 * are held back by {@code timeservice.deliveries.max} ({@code heldBackClocks}, from the loop's last sample). Not in
 * readiness or liveness, for the reasons {@link FiringHealthIndicator} gives. Reads volatile fields only, never the
 * database.
 */
public class PostgresFiringHealthIndicator implements HealthIndicator {

    private final PostgresStore store;

    public PostgresFiringHealthIndicator(PostgresStore store) {
        this.store = store;
    }

    @Override
    public Health health() {
        PostgresFiringLoop loop = store.firing();
        if (loop == null || !loop.isAlive()) {
            return Health.down()
                    .withDetail("thread", "stopped: this instance fires no system clock until it is restarted")
                    .withDetail("lastLookWallMillis", loop == null ? 0 : loop.lastLookWallMillis())
                    .build();
        }
        Health.Builder health = Health.up()
                .withDetail("thread", "running")
                .withDetail("lagMillis", loop.lagMillis())
                .withDetail("lastLookWallMillis", loop.lastLookWallMillis());
        if (loop.failing()) {
            health.withDetail("looks", "failing: the database cannot be reached; the loop tries again by itself");
        }
        StoreSample sample = loop.sample();
        long heldBack = sample == null ? 0 : sample.heldBackClocks();
        health.withDetail("heldBackClocks", heldBack);
        if (heldBack > 0) {
            health.withDetail("heldBack", "due timers of " + heldBack + " clock(s) stay pending: the deliveries of"
                    + " all clocks hold timeservice.deliveries.max (" + store.maxDeliveries() + "); they fire as"
                    + " deliveries are acknowledged or deleted");
        }
        return health.build();
    }
}
