package io.timeservice.push;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorStatus;

/**
 * The push client's HTTP client and connection pool, replaced by a new pair when the client's I/O reactor is no
 * longer {@link IOReactorStatus#ACTIVE} while nobody closed it. An I/O thread that dies (an {@code Error} on it, such
 * as the {@code OutOfMemoryError} of a target that was once read without bound) takes no push down for good: the
 * library shuts its whole reactor down at the next connection it would have opened on that thread, every later
 * connection would fail, and {@link #restartIfDown} puts a fresh client in its place. The pusher's timer thread
 * looks every second ({@link #check}), and every attempt that fails for want of a reactor looks at once.
 *
 * <p>Thread-safe; a restart is serialised, readers see the current pair through a volatile field.
 */
final class RestartingClient implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RestartingClient.class.getName());

    /** One client and the pool it owns. */
    record Generation(CloseableHttpAsyncClient client, ExchangeConnections connections) {

        void close() {
            client.close(CloseMode.IMMEDIATE);
            connections.close(CloseMode.IMMEDIATE);
        }
    }

    private final Supplier<Generation> factory;
    private final Runnable restarted;
    private final AtomicLong restarts = new AtomicLong();
    private volatile Generation current;
    private volatile Instant lastRestart;
    private volatile boolean closed;

    /**
     * @param factory   makes a started client and its pool
     * @param restarted told after each restart (the metric)
     */
    RestartingClient(Supplier<Generation> factory, Runnable restarted) {
        this.factory = factory;
        this.restarted = restarted;
        this.current = factory.get();
    }

    Generation current() {
        return current;
    }

    /**
     * Replaces {@code seen} by a new client if its reactor is no longer active and it is still the current one;
     * returns the client to use now.
     */
    Generation restartIfDown(Generation seen) {
        if (closed || seen != current || seen.client().getStatus() == IOReactorStatus.ACTIVE) {
            return current;
        }
        Generation stale;
        Generation fresh;
        synchronized (this) {
            if (closed || seen != current) {
                return current;
            }
            stale = current;
            fresh = factory.get();
            current = fresh;
            lastRestart = Instant.now();
            restarts.incrementAndGet();
        }
        LOG.log(System.Logger.Level.WARNING, "the push HTTP client's I/O reactor was " + stale.client().getStatus()
                + " (an I/O thread died): replaced by a new client; attempts in flight on the old one end as their"
                + " deadlines say and retry");
        // closed on a thread of its own: the caller may be one of the stale client's I/O threads, which closing
        // interrupts
        Thread closing = new Thread(() -> {
            try {
                stale.close();
            } catch (RuntimeException failed) {
                LOG.log(System.Logger.Level.WARNING, "closing the replaced push HTTP client failed: " + failed);
            }
        }, "timeservice-push-client-closing");
        closing.setDaemon(true);
        closing.start();
        restarted.run();
        return fresh;
    }

    /** The periodic look: restarts the client if its reactor is down. */
    void check() {
        try {
            restartIfDown(current);
        } catch (RuntimeException failed) {
            LOG.log(System.Logger.Level.WARNING, "restarting the push HTTP client failed; the next look tries again: "
                    + failed);
        }
    }

    /** The current client's reactor status. */
    IOReactorStatus status() {
        return current.client().getStatus();
    }

    long restarts() {
        return restarts.get();
    }

    /** When the client was last replaced, or null. */
    Instant lastRestart() {
        return lastRestart;
    }

    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            current.close();
        }
    }
}
