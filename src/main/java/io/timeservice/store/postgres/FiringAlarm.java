package io.timeservice.store.postgres;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * When this instance's {@link PostgresFiringLoop} looks at the database next, and how a change made on this instance
 * brings that look forward. Times are the database's clock (Unix epoch ms), the clock that decides "due"; a sleep is
 * their distance from the database's now at the last look, waited on this JVM's monotonic clock, so a skewed or
 * stepped wall clock changes nothing.
 *
 * <p>No lost wake-up. Changes tell {@link #dueAt} after their commit. The loop calls {@link #lookStarts} before its
 * query and plans with {@link #sleep}, which takes the earliest time told since then: a change told before
 * {@code lookStarts} had committed before the query, which therefore sees its rows; one told after it is in the
 * plan. Both run under one lock, and a sleep ends on {@link Condition#signal} when a change is due sooner than
 * planned. While the loop looks (between {@code lookStarts} and {@code sleep}) nothing is signalled: what is told is
 * only recorded.
 *
 * <p>Thread-safe: any thread may tell; one thread (the loop) looks and sleeps.
 */
final class FiringAlarm {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition rung = lock.newCondition();
    // Guarded by lock.
    private long earliestTold = Long.MAX_VALUE; // told since the current look started
    private long plannedWake = Long.MIN_VALUE; // the sleep's end; MIN_VALUE while looking (nothing to interrupt)
    private long lookDbMillis; // the database's now at the last look, and this JVM's nanoTime then
    private long lookNanos;
    private boolean looked;
    private boolean stopping;

    /** Something on this instance comes due at {@code dbMillis} (the database's clock); call after the commit. */
    void dueAt(long dbMillis) {
        lock.lock();
        try {
            earliestTold = Math.min(earliestTold, dbMillis);
            if (dbMillis < plannedWake) {
                rung.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Something comes due {@code millis} after the commit that just happened, by the database's clock: reckoned from
     * the database's now at the last look plus the monotonic time since. Before the first sleep there is no such now:
     * the first look may be under way, its query read before this commit, so it is told as due at once (the loop
     * looks again instead of sleeping).
     */
    void dueIn(long millis) {
        long at;
        lock.lock();
        try {
            // epoch 0: long past, and far enough from overflow for the sleep's arithmetic
            at = !looked ? 0 : lookDbMillis + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lookNanos) + millis;
        } finally {
            lock.unlock();
        }
        dueAt(at);
    }

    /** Call before the look's query: what was told before this committed before the query and is seen by it. */
    void lookStarts() {
        lock.lock();
        try {
            earliestTold = Long.MAX_VALUE;
            plannedWake = Long.MIN_VALUE;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sleeps until {@code wakeDbMillis}, or sooner when a change told since {@link #lookStarts} is due sooner, or
     * until {@link #stop}.
     *
     * @param dbNowMillis the database's now at the look, read at {@code lookNanos} on {@link System#nanoTime}
     */
    void sleep(long dbNowMillis, long lookNanos, long wakeDbMillis) throws InterruptedException {
        lock.lock();
        try {
            this.lookDbMillis = dbNowMillis;
            this.lookNanos = lookNanos;
            this.looked = true;
            while (!stopping) {
                long wake = Math.min(wakeDbMillis, earliestTold);
                plannedWake = wake;
                // no overflow: both are epoch milliseconds (the wake at most a slow poll ahead)
                long left = lookNanos + TimeUnit.MILLISECONDS.toNanos(wake - dbNowMillis) - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                rung.awaitNanos(left);
            }
            plannedWake = Long.MIN_VALUE;
        } finally {
            lock.unlock();
        }
    }

    /** Waits {@code nanos} (a pause after a failure) unless stopped. */
    void pause(long nanos) throws InterruptedException {
        lock.lock();
        try {
            long deadline = System.nanoTime() + nanos;
            long left;
            while (!stopping && (left = deadline - System.nanoTime()) > 0) {
                rung.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Ends the current sleep or pause, and every later one at once. */
    void stop() {
        lock.lock();
        try {
            stopping = true;
            rung.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The sleep's planned end (the database's clock), {@link Long#MIN_VALUE} while not sleeping; for tests. */
    long plannedWake() {
        lock.lock();
        try {
            return plannedWake;
        } finally {
            lock.unlock();
        }
    }
}
