package io.timeservice.push;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Ends push attempts that outlive their timeout, with one sweep every {@link #TICK_MILLIS} while any attempt is
 * tracked instead of a scheduled task per attempt. A task per attempt cost a queue lock to schedule and another to
 * cancel, and whenever no other attempt was out (a low rate) each one woke the timer thread only for it to wait again.
 *
 * <p>Layout: one FIFO per timeout value. Attempts with the same timeout come due in the order they were tracked, so a
 * sweep looks at each FIFO's head only: it expires heads that are due, drops heads already answered, and stops at the
 * first head not yet due. An answered attempt's entry forgets its action at once (it holds nothing of the attempt) and
 * leaves its FIFO when it reaches the head. Two threads tracking at the same moment may append a few microseconds out
 * of order; the later of the two then waits one tick more.
 *
 * <p>Thread-safe. {@link #track} is a queue append (and arms the sweep when none is armed), {@link Entry#cancel} a
 * field write, a sweep O(expired + answered heads + timeouts in use). An attempt ends between its timeout and its
 * timeout plus a tick (plus whatever delays the sweeping thread).
 */
final class AttemptDeadlines {

    /** How often a sweep looks while attempts are out: small against the shortest timeout a target may have. */
    static final long TICK_MILLIS = 10;

    /** Runs {@code sweep} once, {@link #TICK_MILLIS} from now, on a thread whose tasks are short. */
    @FunctionalInterface
    interface Ticker {
        void after(long millis, Runnable sweep);
    }

    private final Ticker ticker;
    private final LongSupplier nanoTime;
    /** FIFOs by timeout in nanoseconds; a FIFO is added to and removed (when empty) only inside the map's compute. */
    private final Map<Long, Queue<Entry>> byTimeout = new ConcurrentHashMap<>();
    /** A sweep is scheduled or running: at most one at a time. */
    private final AtomicBoolean armed = new AtomicBoolean();

    AttemptDeadlines(Ticker ticker, LongSupplier nanoTime) {
        this.ticker = ticker;
        this.nanoTime = nanoTime;
    }

    /** Runs {@code expire} once {@code timeoutMillis} have passed, unless the returned entry is cancelled first. */
    Entry track(long timeoutMillis, Runnable expire) {
        long timeout = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Entry entry = new Entry(nanoTime.getAsLong() + timeout, expire);
        byTimeout.compute(timeout, (key, fifo) -> {
            Queue<Entry> into = fifo != null ? fifo : new ConcurrentLinkedQueue<>();
            into.add(entry);
            return into;
        });
        arm();
        return entry;
    }

    /** Expires what is due and drops what was answered; schedules the next sweep while anything is tracked. */
    void sweep() {
        long now = nanoTime.getAsLong();
        for (Map.Entry<Long, Queue<Entry>> timeout : byTimeout.entrySet()) {
            Queue<Entry> fifo = timeout.getValue();
            for (Entry head; (head = fifo.peek()) != null; ) {
                Runnable expire = head.expire;
                if (expire != null && head.deadlineNanos - now > 0) {
                    break; // the rest of this FIFO comes due later
                }
                fifo.poll(); // only the sweep polls, and one sweep runs at a time: this is the head just seen
                if (expire != null) {
                    head.expire = null;
                    runQuietly(expire);
                }
            }
            byTimeout.computeIfPresent(timeout.getKey(), (key, still) -> still.isEmpty() ? null : still);
        }
        armed.set(false);
        if (!byTimeout.isEmpty()) {
            arm(); // after clearing the flag: a track that saw the flag set has appended before this look
        }
    }

    /** How many entries are held, answered ones not yet dropped included (for tests). */
    int held() {
        return byTimeout.values().stream().mapToInt(Queue::size).sum();
    }

    private void arm() {
        if (armed.compareAndSet(false, true)) {
            try {
                ticker.after(TICK_MILLIS, this::sweep);
            } catch (RuntimeException closed) {
                armed.set(false); // the timer thread is gone (stopping): a later track tries again
                throw closed;
            }
        }
    }

    private static void runQuietly(Runnable expire) {
        try {
            expire.run();
        } catch (RuntimeException failed) {
            System.getLogger(AttemptDeadlines.class.getName()).log(System.Logger.Level.WARNING,
                    "ending a push attempt at its timeout failed: " + failed);
        }
    }

    /** One tracked attempt. */
    static final class Entry {
        final long deadlineNanos;
        /** What ends the attempt; null once answered or expired. */
        volatile Runnable expire;

        Entry(long deadlineNanos, Runnable expire) {
            this.deadlineNanos = deadlineNanos;
            this.expire = expire;
        }

        /** The attempt was answered: it will not be expired, and holds nothing of the attempt any more. */
        void cancel() {
            expire = null;
        }
    }
}
