package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.ScaledTime;
import io.timeservice.store.SchedulerMetrics;

/**
 * The thread per instance that makes time pass on the PostgreSQL store: it fires the due timers of every system
 * clock into their ready queues ({@link PostgresDeliveries#fireDue}), turns expired leases into retries and due
 * retries into ready deliveries on every system clock ({@link LeaseReleaser#releaseDue}; a virtual clock's
 * leases and retries follow its own time, settled by its advances), and deletes acknowledged
 * deliveries older than the retention. Then it sleeps until the next due time it knows of.
 *
 * <p>Every instance runs it over every clock: {@code SKIP LOCKED} gives concurrent loops disjoint rows, so each
 * timer fires once however many loops look. A look reads, in one statement ({@link FiringLookSql#LOOK}), the system
 * clocks' passed timers, lease ends and retry times (at most a round's worth of each) and the first of each to come,
 * from global indexes of system clocks' rows only, plus each scaled clock's earliest: O(due + scaled clocks), whatever
 * the number of clocks and pending rows; after its rounds it reads what comes next on the clocks it worked on only
 * ({@link FiringLookSql#NEXT_ON}). Times are the
 * database's clock, and the sleep is their distance from the database's now at the look ({@link FiringAlarm}), so
 * instances with skewed wall clocks fire on the same time.
 *
 * <p>Waking. A change on this instance that comes due sooner than the planned wake-up (an add or edit on a system
 * clock, a claim's or extend's lease end, a nack's retry) wakes the loop after its commit, so the instance that accepted it fires it
 * on time; other instances learn of it at their next known due time or their slow poll, which bounds how late a
 * timer fires when the instance that accepted it died. No NOTIFY per add: NOTIFY takes a database-wide lock at
 * commit, which would serialize every add of every instance.
 *
 * <p>Bounded work: each statement moves at most {@code roundSize} rows of one clock; a look whose round was full
 * looks again at once, behind the other clocks due in the same look. Database failures
 * never end the thread: the first one of an outage is logged, later ones are not until a look succeeds again, and
 * looks are retried after a pause that doubles up to a second.
 *
 * <p>The loop runs the purge of acknowledged rows ({@link AckedRowPurge}) in its looks; a second thread samples the
 * gauges' figures ({@link StoreSampler}) every sample period, off the firing path.
 */
public final class PostgresFiringLoop implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PostgresFiringLoop.class.getName());

    /**
     * A clock still due after its rounds (which were not full) had rows held by another transaction (another
     * instance's loop, an edit, an ack): looked at again this soon, in case that transaction rolls back.
     */
    private static final long SKIPPED_RETRY_MILLIS = 100;
    private static final long FIRST_PAUSE_MILLIS = 50;
    private static final long MAX_PAUSE_MILLIS = 1_000;

    /**
     * The loop's settings.
     *
     * @param slowPoll       the longest sleep: how late this instance notices what another instance changed and
     *                       did not fire itself (it died)
     * @param roundSize      most rows one statement moves on one clock
     * @param ackedRetention how long acknowledged deliveries stay, so that a repeated ack still succeeds
     * @param samplePeriod   how often the gauges' figures are sampled ({@link StoreSample})
     */
    public record Settings(Duration slowPoll, int roundSize, Duration ackedRetention, Duration samplePeriod) {

        public Settings {
            if (slowPoll.toMillis() < 1 || roundSize < 1 || ackedRetention.isNegative()
                    || samplePeriod.toMillis() < 1) {
                throw new IllegalArgumentException("firing loop settings out of range: slow poll " + slowPoll
                        + ", round size " + roundSize + ", acked retention " + ackedRetention + ", sample period "
                        + samplePeriod);
            }
        }
    }

    /**
     * What one look found: when to look next.
     *
     * @param dbNowMillis the database's now at the look, read at {@code lookNanos} ({@link System#nanoTime})
     * @param wakeMillis  when the next look is planned (the database's clock), unless a change comes sooner
     * @param more        a round was full: look again at once
     */
    private record Look(long dbNowMillis, long lookNanos, long wakeMillis, boolean more) {
    }

    /**
     * A clock's earliest pending timer, lease end and retry time, as the database's clock (a scaled clock's times
     * turned into it; {@link Long#MAX_VALUE} while frozen); null: none.
     */
    private record EarliestDue(String clock, Long fireTime, Long leaseUntil, Long retryAt) {

        /** The row's times, a scaled clock's ({@code scaled} not null) turned into the database's clock. */
        static EarliestDue of(String clock, Long fireTime, Long leaseUntil, Long retryAt, ScaledTime scaled) {
            return scaled == null ? new EarliestDue(clock, fireTime, leaseUntil, retryAt)
                    : new EarliestDue(clock, dbTime(fireTime, scaled), dbTime(leaseUntil, scaled),
                    dbTime(retryAt, scaled));
        }

        private static Long dbTime(Long clockTime, ScaledTime scaled) {
            return clockTime == null ? null : scaled.wallWhen(clockTime);
        }

        long release() {
            return Math.min(orMax(leaseUntil), orMax(retryAt));
        }

        long any() {
            return Math.min(orMax(fireTime), release());
        }
    }

    /**
     * What {@link FiringLookSql#LOOK} or {@link FiringLookSql#NEXT_ON} read: the database's now, how many passed times
     * of system clocks it read (0 for {@code NEXT_ON}), and the clocks with something.
     */
    private record Read(long dbNowMillis, long passedRead, List<EarliestDue> clocks) {
    }

    private final PostgresDeliveries deliveries;
    private final LeaseReleaser leases;
    private final Jdbc jdbc;
    private final FiringAlarm alarm;
    private final Settings settings;
    /** {@link FiringLookSql#LOOK} with the round size as its window. */
    private final String look;
    /** Told of each firing round as the memory store's firing thread tells of it: an advance. */
    private final SchedulerMetrics metrics;
    private final Thread thread;
    private final StoreSampler sampler;
    private volatile boolean stopped;
    // Used by the loop's thread only.
    private final AckedRowPurge purge;
    private long pauseMillis = FIRST_PAUSE_MILLIS;
    private volatile boolean failing;
    private final AtomicLong failedLooks = new AtomicLong();
    private volatile long lagMillis;
    private volatile long lastLookWallMillis;

    PostgresFiringLoop(PostgresDeliveries deliveries, LeaseReleaser leases, Jdbc jdbc, ClockSkew skew, FiringAlarm alarm,
                       Settings settings, SchedulerMetrics metrics, LongSupplier maxDeliveries) {
        this.deliveries = deliveries;
        this.leases = leases;
        this.jdbc = jdbc;
        this.alarm = alarm;
        this.settings = settings;
        this.look = FiringLookSql.look(settings.roundSize());
        this.metrics = metrics;
        this.sampler = StoreSampler.of(jdbc, skew, maxDeliveries, settings.samplePeriod());
        this.purge = AckedRowPurge.of(jdbc, settings);
        this.thread = new Thread(this::run, "timeservice-postgres-firing");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
        sampler.start();
    }

    /** Stops the thread and waits for it to finish its look. */
    @Override
    public void close() {
        stopped = true;
        alarm.stop();
        sampler.close();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the thread runs (the {@code firing} health component). */
    public boolean isAlive() {
        return thread.isAlive();
    }

    /** Whether the last look failed: the database could not be reached (or answered an error) since. */
    public boolean failing() {
        return failing;
    }

    /** Looks that failed since the start (each is tried again after a pause). */
    public long failedLooks() {
        return failedLooks.get();
    }

    /**
     * How late the last look was: the database's now minus the earliest due time it found passed (a timer, a lease
     * end, a retry), 0 when nothing was overdue.
     */
    public long lagMillis() {
        return lagMillis;
    }

    /** This instance's wall-clock time when the last look succeeded (0: none yet). */
    public long lastLookWallMillis() {
        return lastLookWallMillis;
    }

    /** The gauges' last sample, null until the first was taken. */
    public StoreSample sample() {
        return sampler.sample();
    }

    private void run() {
        while (!stopped) {
            try {
                alarm.lookStarts();
                Look look = look();
                recovered();
                if (!look.more()) {
                    alarm.sleep(look.dbNowMillis(), look.lookNanos(), look.wakeMillis());
                }
            } catch (InterruptedException interrupted) {
                return;
            } catch (RuntimeException | Error failure) {
                failed(failure);
                try {
                    alarm.pause(TimeUnit.MILLISECONDS.toNanos(pauseMillis));
                } catch (InterruptedException interrupted) {
                    return;
                }
                pauseMillis = Math.min(MAX_PAUSE_MILLIS, pauseMillis * 2);
            }
        }
    }

    /**
     * One look: reads every clock's earliest due times, fires and releases what has passed by the database's clock,
     * reads what comes next on the clocks it worked on, purges when due, and plans the next look.
     */
    private Look look() {
        long lookNanos = System.nanoTime();
        Read read = read(look, (connection, select) -> { });
        long now = read.dbNowMillis();
        boolean more = false;
        long earliestPassed = Long.MAX_VALUE;
        long wake = now + settings.slowPoll().toMillis(); // epoch milliseconds plus a duration: no overflow
        List<String> worked = new ArrayList<>();
        long moved = 0;
        for (EarliestDue due : read.clocks()) {
            if (due.any() > now) {
                wake = Math.min(wake, due.any());
                continue;
            }
            earliestPassed = Math.min(earliestPassed, due.any());
            worked.add(due.clock());
            if (orMax(due.fireTime()) <= now) {
                int fired = fire(due.clock());
                moved += fired;
                more |= fired >= settings.roundSize();
            }
            if (due.release() <= now) {
                int released = release(due.clock());
                moved += released;
                more |= released >= settings.roundSize();
            }
        }
        // the look read a full window of some kind of passed times: more clocks may be due behind it; look again at
        // once, unless nothing moved (the window's rows were held by other transactions: the retry below applies)
        more |= read.passedRead() >= settings.roundSize() && moved > 0;
        if (!worked.isEmpty() && !more) {
            // what comes next on the clocks just worked on (retry times of expired leases among it), read once
            String[] names = worked.toArray(String[]::new);
            for (EarliestDue after : read(FiringLookSql.NEXT_ON, (connection, select) ->
                    select.setArray(1, connection.createArrayOf("text", names))).clocks()) {
                // still due: held by another transaction (another loop, an edit); look again soon in case it rolls
                // back rather than commits
                wake = Math.min(wake, after.any() <= now ? now + SKIPPED_RETRY_MILLIS : after.any());
            }
        }
        lagMillis = earliestPassed == Long.MAX_VALUE ? 0 : now - earliestPassed;
        more |= purge.purgeIfDue(now);
        wake = Math.min(wake, purge.nextPurgeMillis());
        lastLookWallMillis = System.currentTimeMillis();
        return new Look(now, lookNanos, wake, more);
    }

    /** Binds a statement's parameters. */
    @FunctionalInterface
    private interface Binding {
        void bind(Connection connection, PreparedStatement statement) throws SQLException;
    }

    /** Runs the look ({@link #look}) or {@link FiringLookSql#NEXT_ON} with its parameters bound. */
    private Read read(String statement, Binding parameters) {
        return jdbc.autocommit(connection -> {
            try (PreparedStatement select = connection.prepareStatement(statement)) {
                parameters.bind(connection, select);
                List<EarliestDue> due = new ArrayList<>();
                long dbNow = 0;
                long passedRead = 0;
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        dbNow = rows.getLong(1);
                        passedRead = rows.getLong(2);
                        if (rows.getString(3) != null) {
                            Long rate = rows.getObject(7, Long.class);
                            ScaledTime scaled = rate == null ? null
                                    : new ScaledTime(rows.getLong(8), rows.getLong(9), new ClockRate(rate));
                            due.add(EarliestDue.of(rows.getString(3), rows.getObject(4, Long.class),
                                    rows.getObject(5, Long.class), rows.getObject(6, Long.class), scaled));
                        }
                    }
                }
                return new Read(dbNow, passedRead, due);
            }
        });
    }

    /**
     * One round of {@code clock}'s due timers, reported as one advance that fired them; 0 when the clock was deleted
     * since the look.
     */
    private int fire(String clock) {
        return unlessDeleted(() -> {
            long start = System.nanoTime();
            int fired = deliveries.fireDue(clock, settings.roundSize());
            metrics.operation(SchedulerMetrics.Operation.ADVANCE, SchedulerMetrics.Outcome.SUCCESS,
                    System.nanoTime() - start);
            metrics.advanced(fired);
            return fired;
        });
    }

    /** One round of {@code clock}'s expired leases and due retries; 0 when the clock was deleted since the look. */
    private int release(String clock) {
        return unlessDeleted(() -> {
            LeaseReleaser.Released released = leases.releaseDue(clock, settings.roundSize());
            return released.expired() + released.readied();
        });
    }

    /**
     * What one step on a clock moved, or 0 when the clock was deleted since the look read it: the step is skipped and
     * the look goes on with the other clocks (a deleted clock is no failure of the database).
     */
    private static int unlessDeleted(IntSupplier step) {
        try {
            return step.getAsInt();
        } catch (ProblemException refused) {
            if (refused.code() == ErrorCode.CLOCK_NOT_FOUND) {
                return 0;
            }
            throw refused;
        }
    }

    private void failed(Throwable failure) {
        failedLooks.incrementAndGet();
        if (!failing) {
            failing = true;
            LOG.log(System.Logger.Level.WARNING, "a look of the firing loop failed; it tries again, and system clocks"
                    + " fire and leases and retries are released once a look succeeds (logged once until then)",
                    failure);
        }
    }

    private void recovered() {
        if (failing) {
            failing = false;
            LOG.log(System.Logger.Level.INFO, "the firing loop's looks succeed again");
        }
        pauseMillis = FIRST_PAUSE_MILLIS;
    }

    private static long orMax(Long value) {
        return value == null ? Long.MAX_VALUE : value;
    }
}
