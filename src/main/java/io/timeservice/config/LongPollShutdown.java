package io.timeservice.config;

import io.timeservice.core.Clocks;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Ends every delivery long poll when the service stops. Its phase is the default one, above the web server's
 * graceful shutdown, so it stops first: a claim waiting up to 30 s answers what it has at once, and the graceful
 * shutdown then waits only for requests that are really working.
 */
@Component
class LongPollShutdown implements SmartLifecycle {

    private final Clocks clocks;
    private volatile boolean running;

    LongPollShutdown(Clocks clocks) {
        this.clocks = clocks;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        clocks.endWaits();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
