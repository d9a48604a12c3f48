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
 * <p>A name's attempts belong to one incarnation of the clock ({@link io.timeservice.model.ClockView#incarnation},
 * which only grows): a clock deleted and created again under the name shows none of the old one's, and the old
 * one's go as soon as the new one is read or pushes, or at once when it is deleted through this instance
 * ({@link #forget}). A clock deleted elsewhere (another instance, the idle sweeper) keeps its place until then or
 * until the {@value #CLOCKS} most recent push to others.
 *
 * <p>Wraps the pusher's {@link PushMetrics} ({@link #around}), so that every attempt is seen once, whatever sends it.
 */
public final class RecentPushes implements PushHistory {

    /** Clocks kept. */
    public static final int CLOCKS = 10_000;

    private final LongSupplier wallMillis;
    private final Map<String, Kept> byClock = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Kept> eldest) {
            return size() > CLOCKS;
        }
    };

    /** One incarnation's attempts, newest first. */
    private record Kept(long incarnation, ArrayDeque<Recent> attempts) {
    }

    public RecentPushes(LongSupplier wallMillis) {
        this.wallMillis = wallMillis;
    }

    @Override
    public List<Recent> of(String clock, long incarnation) {
        synchronized (byClock) {
            Kept kept = byClock.get(clock);
            if (kept != null && kept.incarnation() < incarnation) {
                byClock.remove(clock); // a clock deleted since: its attempts are no one's
            }
            return kept == null || kept.incarnation() != incarnation ? List.of() : new ArrayList<>(kept.attempts());
        }
    }

    @Override
    public void forget(String clock) {
        synchronized (byClock) {
            byClock.remove(clock);
        }
    }

    void record(String clock, long incarnation, Recent recent) {
        synchronized (byClock) {
            Kept kept = byClock.get(clock);
            if (kept != null && kept.incarnation() > incarnation) {
                return; // an attempt of a clock deleted since, ending late
            }
            if (kept == null || kept.incarnation() < incarnation) {
                kept = new Kept(incarnation, new ArrayDeque<>(PER_CLOCK));
                byClock.put(clock, kept);
            }
            if (kept.attempts().size() == PER_CLOCK) {
                kept.attempts().removeLast();
            }
            kept.attempts().addFirst(recent);
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
            public PushAttempt attemptStarted(String clock, long incarnation, Delivery delivery, String url,
                                              boolean last) {
                PushAttempt inner = metrics.attemptStarted(clock, incarnation, delivery, url, last);
                long started = System.nanoTime();
                return new PushAttempt() {
                    @Override
                    public Map<String, String> headers() {
                        return inner.headers();
                    }

                    @Override
                    public void ended(PushOutcome outcome) {
                        inner.ended(outcome);
                        record(clock, incarnation, new Recent(wallMillis.getAsLong(), delivery.id(),
                                delivery.sequence(), delivery.attempt(), outcome.kind().tag(), outcome.status(),
                                outcome.detail(), (System.nanoTime() - started) / 1_000_000));
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
