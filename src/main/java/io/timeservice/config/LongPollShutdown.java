package io.timeservice.config;

import io.timeservice.store.DeliveryStore;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Ends every delivery long poll when the service stops, on either store. Its phase is the default one, above the
 * web server's graceful shutdown, so it stops first: a claim waiting up to 30 s answers what it has at once, and the
 * graceful shutdown then waits only for requests that are really working. A start (also after a stop: a paused
 * context resumed) lets polls wait again.
 */
@Component
class LongPollShutdown implements SmartLifecycle {

    private final DeliveryStore deliveries;
    private volatile boolean running;

    LongPollShutdown(DeliveryStore deliveries) {
        this.deliveries = deliveries;
    }

    @Override
    public void start() {
        deliveries.allowWaits();
        running = true;
    }

    @Override
    public void stop() {
        deliveries.endWaits();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
