package io.timeservice.push;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import io.timeservice.model.Delivery;
import io.timeservice.store.PushHistory;

/**
 * The last {@value #PER_CLOCK} push attempts of each clock, newest first, for the operator console's push section:
 * what this instance saw, in memory only (on PostgreSQL with several instances each knows its own attempts; a restart
 * forgets them). Bounded: {@value #PER_CLOCK} per clock and {@value #CLOCKS} clocks, the clock pushed to least
 * recently forgotten first. An attempt keeps its delivery's id and sequence, the HTTP status and the outcome's kind
 * and words, never a header, a URL or a body. Thread-safe: attempts end on the client's I/O threads.
 *
 * <p>Wraps the pusher's {@link PushMetrics} ({@link #around}), so that every attempt is seen once, whatever sends it.
 */
public final class RecentPushes implements PushHistory {

    /** Clocks kept. */
    public static final int CLOCKS = 10_000;

    private final LongSupplier wallMillis;
    private final Map<String, ArrayDeque<Recent>> byClock = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ArrayDeque<Recent>> eldest) {
            return size() > CLOCKS;
        }
    };

    public RecentPushes(LongSupplier wallMillis) {
        this.wallMillis = wallMillis;
    }

    @Override
    public List<Recent> of(String clock) {
        synchronized (byClock) {
            ArrayDeque<Recent> recent = byClock.get(clock);
            return recent == null ? List.of() : new ArrayList<>(recent);
        }
    }

    /** Forgets the clock's attempts (the clock was deleted). */
    public void forget(String clock) {
        synchronized (byClock) {
            byClock.remove(clock);
        }
    }

    void record(String clock, Recent recent) {
        synchronized (byClock) {
            ArrayDeque<Recent> kept = byClock.computeIfAbsent(clock, name -> new ArrayDeque<>(PER_CLOCK));
            if (kept.size() == PER_CLOCK) {
                kept.removeLast();
            }
            kept.addFirst(recent);
        }
    }

    /** {@code metrics}, telling this of every attempt's end as well. */
    public PushMetrics around(PushMetrics metrics) {
        return new PushMetrics() {
            @Override
            public void attempt(PushOutcome.Kind outcome, long nanos) {
                metrics.attempt(outcome, nanos);
            }

            @Override
            public PushAttempt attemptStarted(String clock, Delivery delivery, String url, boolean last) {
                PushAttempt inner = metrics.attemptStarted(clock, delivery, url, last);
                long started = System.nanoTime();
                return new PushAttempt() {
                    @Override
                    public Map<String, String> headers() {
                        return inner.headers();
                    }

                    @Override
                    public void ended(PushOutcome outcome) {
                        inner.ended(outcome);
                        record(clock, new Recent(wallMillis.getAsLong(), delivery.id(), delivery.sequence(),
                                delivery.attempt(), outcome.kind().tag(), outcome.status(), outcome.detail(),
                                (System.nanoTime() - started) / 1_000_000));
                    }
                };
            }

            @Override
            public void clientRestarted() {
                metrics.clientRestarted();
            }
        };
    }
}
