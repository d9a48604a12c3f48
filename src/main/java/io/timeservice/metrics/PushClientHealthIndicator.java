package io.timeservice.metrics;

import io.timeservice.push.PushClient;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code pushClient} health component: UP while the push HTTP client's I/O reactor is active, DOWN while it is
 * not (an I/O thread died and the client is not yet replaced: pushes fail meanwhile). Its details say how often the
 * client was replaced and when last, so a replacement shows after the fact too.
 */
@Component
class PushClientHealthIndicator implements HealthIndicator {

    private final PushClient client;

    PushClientHealthIndicator(PushClient client) {
        this.client = client;
    }

    @Override
    public Health health() {
        String reactor = client.reactorStatus();
        Health.Builder health = "ACTIVE".equals(reactor) ? Health.up() : Health.down();
        health.withDetail("ioReactor", reactor).withDetail("restarts", client.restarts());
        if (client.lastRestart() != null) {
            health.withDetail("lastRestart", client.lastRestart().toString());
        }
        return health.build();
    }
}
