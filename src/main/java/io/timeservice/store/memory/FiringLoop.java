package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;

/**
 * The one thread that fires every system clock's due timers: it sleeps until the earliest deadline any system clock
 * told it ({@link Wakeups}), runs those clocks' firing rounds, and sleeps again. No polling interval: a clock that
 * gets an earlier deadline (a new timer due sooner, a lease, a retry) tells it under the clock's lock, and the
 * thread's wait ends at once. A deadline told between the thread's look and its wait is not lost: both happen under
 * one lock, and a wait ends on {@link Condition#signal}.
 *
 * <p>Time. Deadlines are wall-clock epoch milliseconds (the clocks' time); each wait is their distance from the wall
 * clock's now, waited on the monotonic clock ({@link Condition#awaitNanos}), and never longer than
 * {@code maxSleepMillis}. A wall-clock step back therefore fires nothing early (the thread wakes, finds nothing due
 * by the wall clock, and sleeps again); a step forward is noticed within {@code maxSleepMillis}, and whatever it made
 * due fires then.
 *
 * <p>Fairness. A round fires at most {@code roundSize} timers of one clock; a clock with more due (a catch-up after
 * downtime) asks for its next round at once, behind the other clocks already due.
 */
public final class FiringLoop implements Wakeups {

    private static final System.Logger LOG = System.getLogger(FiringLoop.class.getName());

    private final LongSupplier wallMillis;
    private final long maxSleepMillis;
    private final int roundSize;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition told = lock.newCondition();
    // Guarded by lock: each scheduler's earliest deadline, and the same by time (ties by an arrival number).
    private final Map<TimerScheduler, Wake> byScheduler = new HashMap<>();
    private final TreeSet<Wake> byTime = new TreeSet<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at)
            : Long.compare(a.order, b.order));
    private long nextOrder;
    /** Guarded by lock: clocks whose last round was refused, with the wall time of the first refusal in a row. */
    private final Map<TimerScheduler, Long> refusing = new HashMap<>();
    private volatile boolean running;
    private volatile Thread thread;
    /** Wall-clock time the thread last finished a look; for health. */
    private volatile long lastLookWallMillis;

    private record Wake(TimerScheduler scheduler, long at, long order) {
    }

    /**
     * @param maxSleepMillis the longest single wait: how soon a forward wall-clock step is noticed
     * @param roundSize      most timers one round of one clock fires
     */
    public FiringLoop(LongSupplier wallMillis, long maxSleepMillis, int roundSize) {
        if (maxSleepMillis < 1 || roundSize < 1) {
            throw new IllegalArgumentException("maxSleepMillis and roundSize must be >= 1");
        }
        this.wallMillis = wallMillis;
        this.maxSleepMillis = maxSleepMillis;
        this.roundSize = roundSize;
    }

    @Override
    public void wakeAt(TimerScheduler scheduler, long at) {
        lock.lock();
        try {
            Wake current = byScheduler.get(scheduler);
            if (current != null && current.at <= at) {
                return;
            }
            if (current != null) {
                byTime.remove(current);
            }
            Wake wake = new Wake(scheduler, at, nextOrder++);
            byScheduler.put(scheduler, wake);
            byTime.add(wake);
            if (byTime.first() == wake) {
                told.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void forget(TimerScheduler scheduler) {
        lock.lock();
        try {
            Wake current = byScheduler.remove(scheduler);
            if (current != null) {
                byTime.remove(current);
            }
            refusing.remove(scheduler);
        } finally {
            lock.unlock();
        }
    }

    /** Clocks the thread keeps a wake-up for; for tests. */
    int clocksWaiting() {
        lock.lock();
        try {
            return byScheduler.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Clocks whose last firing round was refused ({@code storage_unavailable}: journal back-pressure, or a stopped
     * journal): their timers, lease ends and retries wait until a round succeeds. Refused rounds are tried again
     * with a backoff.
     */
    public int refusingClocks() {
        lock.lock();
        try {
            return refusing.size();
        } finally {
            lock.unlock();
        }
    }

    /** Starts the firing thread (a daemon). */
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        running = true;
        Thread started = new Thread(this::run, "timeservice-firing");
        started.setDaemon(true);
        thread = started;
        started.start();
    }

    /** Stops the firing thread and waits for it to finish its round. */
    public void stop() throws InterruptedException {
        Thread running;
        synchronized (this) {
            running = thread;
            this.running = false;
        }
        if (running == null) {
            return;
        }
        lock.lock();
        try {
            told.signalAll();
        } finally {
            lock.unlock();
        }
        running.join(TimeUnit.SECONDS.toMillis(10));
    }

    public boolean isAlive() {
        Thread current = thread;
        return current != null && current.isAlive();
    }

    /**
     * How far behind the thread is: the wall clock's now minus the earliest deadline not yet taken or the first of a
     * clock's refused rounds in a row, 0 when nothing is overdue.
     */
    public long lagMillis() {
        lock.lock();
        try {
            long first = byTime.isEmpty() ? Long.MAX_VALUE : byTime.first().at;
            for (long refusedSince : refusing.values()) {
                first = Math.min(first, refusedSince); // a refused round is overdue since its first refusal
            }
            return first == Long.MIN_VALUE || first == Long.MAX_VALUE ? 0 : Math.max(0, wallMillis.getAsLong() - first);
        } finally {
            lock.unlock();
        }
    }

    /** Wall-clock epoch milliseconds when the thread last looked for due clocks (0: never). */
    public long lastLookWallMillis() {
        return lastLookWallMillis;
    }

    /**
     * Runs the rounds of every clock due by the wall clock's now, once; returns how many timers fired. The thread
     * calls it in its loop; tests call it directly on an injected wall clock.
     */
    public int fireDue() {
        int fired = 0;
        long now = wallMillis.getAsLong();
        for (TimerScheduler scheduler : takeDue(now)) {
            try {
                fired += scheduler.fireRound(roundSize);
                refused(scheduler, false, now);
            } catch (ProblemException refused) {
                if (refused.code() == ErrorCode.STORAGE_UNAVAILABLE) {
                    // back-pressure (the clock asked for another round after a backoff) or a stopped journal:
                    // either way its timers wait, which health and the lag gauge show
                    if (refused(scheduler, true, now)) {
                        LOG.log(System.Logger.Level.WARNING, "a clock's firing round was refused; retrying with"
                                + " backoff: " + refused.getMessage());
                    }
                } else {
                    // deleted: it asks for nothing more
                    LOG.log(System.Logger.Level.DEBUG, "a clock stopped firing: " + refused.getMessage());
                }
            } catch (RuntimeException bug) {
                // the clock fail-stops itself where it must; the other clocks taken with it still get their rounds
                LOG.log(System.Logger.Level.ERROR, "a firing round failed", bug);
            }
        }
        return fired;
    }

    /** Notes whether {@code scheduler}'s round at {@code now} was refused; true when a refusal starts. */
    private boolean refused(TimerScheduler scheduler, boolean refused, long now) {
        lock.lock();
        try {
            if (!refused) {
                refusing.remove(scheduler);
                return false;
            }
            return refusing.putIfAbsent(scheduler, now) == null;
        } finally {
            lock.unlock();
        }
    }

    /** The earliest deadline told and not yet taken, or {@link Long#MAX_VALUE}. */
    public long nextDeadline() {
        lock.lock();
        try {
            return byTime.isEmpty() ? Long.MAX_VALUE : byTime.first().at;
        } finally {
            lock.unlock();
        }
    }

    private List<TimerScheduler> takeDue(long now) {
        lock.lock();
        try {
            List<TimerScheduler> due = new ArrayList<>();
            while (!byTime.isEmpty() && byTime.first().at <= now) {
                Wake wake = byTime.pollFirst();
                byScheduler.remove(wake.scheduler);
                due.add(wake.scheduler);
            }
            return due;
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        while (running) {
            try {
                fireDue();
                awaitNextDeadline();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | Error e) {
                // a bug in one round must not stop real time for every clock; the clock itself fail-stops
                LOG.log(System.Logger.Level.ERROR, "a firing round failed", e);
            }
        }
    }

    private void awaitNextDeadline() throws InterruptedException {
        lock.lock();
        try {
            long now = wallMillis.getAsLong();
            lastLookWallMillis = now;
            if (!running) {
                return;
            }
            long wait = byTime.isEmpty() ? maxSleepMillis
                    : Math.min(maxSleepMillis, Math.max(0, saturatedMinus(byTime.first().at, now)));
            if (wait > 0) {
                told.awaitNanos(TimeUnit.MILLISECONDS.toNanos(wait));
            }
        } finally {
            lock.unlock();
        }
    }

    private static long saturatedMinus(long a, long b) {
        long difference = a - b;
        return ((a ^ b) & (a ^ difference)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : difference;
    }
}
