package io.timeservice.push;

import java.util.concurrent.CompletableFuture;

import org.apache.hc.client5.http.nio.AsyncConnectionEndpoint;
import org.apache.hc.core5.io.CloseMode;

/**
 * One push attempt's exchange with its target, and the connection carrying it once it has one. It ends once, by its
 * answer, a failure or its deadline; an end other than a whole answer closes that connection at once (never back to
 * the pool), and only then completes {@link #outcome()}. So the pusher's slot that the outcome frees is free for real:
 * no request of the attempt is left open at the target (a socket closed immediately is closed when {@code close}
 * returns). An exchange that ends while it still waits for a connection or connects sends nothing: the connection,
 * once there, is refused ({@link #carriedBy}) and closed. The wait and the connect are not cancelled: the minimal
 * client drops a connection that completes after its exchange was cancelled, still open and never released.
 *
 * <p>Thread-safe: the client's I/O thread, the deadline sweep and the caller's thread may race to end it.
 */
final class PushExchange {

    private final CompletableFuture<PushOutcome> outcome = new CompletableFuture<>();
    /** Guarded by this: the connection carrying the request, null before the lease and after the end. */
    private AsyncConnectionEndpoint connection;
    /** Guarded by this. */
    private boolean ended;

    CompletableFuture<PushOutcome> outcome() {
        return outcome;
    }

    /** {@code carrier} carries the request from now on; false when the exchange has ended (then do not send). */
    synchronized boolean carriedBy(AsyncConnectionEndpoint carrier) {
        if (ended) {
            return false;
        }
        connection = carrier;
        return true;
    }

    /** Starts over on another client; false once it has ended or had a connection (something may have been sent). */
    synchronized boolean restart() {
        return !ended && connection == null;
    }

    /** Ended by a whole answer: its connection is the pool's again (or closed by it). */
    void answered(PushOutcome answered) {
        end(answered, false);
    }

    /** Ended otherwise (failure, deadline, an answer cut short): closes its connection, if any, first. */
    void failed(PushOutcome failed) {
        end(failed, true);
    }

    private void end(PushOutcome ending, boolean close) {
        AsyncConnectionEndpoint open;
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            open = connection;
            connection = null;
        }
        try {
            if (close && open != null) {
                open.close(CloseMode.IMMEDIATE); // a connection back in the pool already is detached: no-op
            }
        } finally {
            outcome.complete(ending);
        }
    }
}
