package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ScaledTime;
import io.timeservice.model.SchedulerException;
import io.timeservice.store.SchedulerMetrics;

/**
 * The thread per instance that makes time pass on the PostgreSQL store: it fires the due timers of every system
 * clock into their ready queues ({@link PostgresDeliveries#fireDue}), turns expired leases into retries and due
 * retries into ready deliveries on every system clock ({@link LeaseReleaser#releaseDue}; a virtual clock's
 * leases and retries follow its own time, settled by its advances), and deletes acknowledged
 * deliveries older than the retention. Then it sleeps until the next due time it knows of.
 *
 * <p>Every instance runs it over every clock: {@code SKIP LOCKED} gives concurrent loops disjoint rows, so each
 * timer fires once however many loops look. A look reads, in one statement ({@link #LOOK}), the system clocks' passed
 * timers, lease ends and retry times (at most a round's worth of each) and the first of each to come, from global
 * indexes of system clocks' rows only, plus each scaled clock's earliest: O(due + scaled clocks), whatever the number
 * of clocks and pending rows; after its rounds it reads what comes next on the clocks it worked on only. Times are the
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
 * <p>A second thread samples the gauges' figures ({@link StoreSample}) every sample period, off the firing path.
 */
public final class PostgresFiringLoop implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PostgresFiringLoop.class.getName());

    /**
     * Acknowledged deliveries past their retention are purged (one round per look) every slow poll, or every
     * retention if that is shorter, but not more often than this.
     */
    private static final long MIN_PURGE_EVERY_MILLIS = 100;
    /**
     * A clock still due after its rounds (which were not full) had rows held by another transaction (another
     * instance's loop, an edit, an ack): looked at again this soon, in case that transaction rolls back.
     */
    private static final long SKIPPED_RETRY_MILLIS = 100;
    private static final long FIRST_PAUSE_MILLIS = 50;
    private static final long MAX_PAUSE_MILLIS = 1_000;

    /**
     * Per clock: the earliest pending timer, lease end and retry time of each clock that {@code clocks} (a condition
     * on the row {@code c}) selects, each the front of an index range ({@code timers_firing_order},
     * {@code deliveries_leases}, {@code deliveries_waiting}): one index probe per value, with a scaled clock's rate
     * and anchor, which turn its times into the database's clock. Columns: name, rate, anchor, now, fire time, lease
     * end, retry time.
     */
    private static String perClock(String clocks) {
        return """
            SELECT c.name, c.rate_millionths, c.anchor_wall, c.now_ms,
                   (SELECT min(fire_time) FROM timers WHERE clock = c.name) AS fire_time,
                   (SELECT min(lease_until) FROM deliveries WHERE clock = c.name AND state = 'in_flight') AS lease_until,
                   (SELECT min(retry_at) FROM deliveries WHERE clock = c.name AND state = 'waiting') AS retry_at
              FROM clocks c
             WHERE\s""" + clocks;
    }

    /**
     * One kind of time of the system clocks' {@code rows} (kind 0: timers, 1: lease ends, 2: retry times), from its
     * global index: the passed ones, at most the window ({@code %1$d} left in the text, {@link #look}), and the first
     * to come. The look's now is a subquery's on purpose: the planner cannot read it, so it takes a third of the rows
     * as passed, and on a large table (100,000 rows and up, measured) it reads the front in index order, which stops
     * at the window however large a backlog grows; on a small one, a bitmap scan of the index and a sort. With
     * {@code db_now_ms()} here it would estimate from the backlog at the time it plans, and the cached plan
     * ({@link #LOOK}) could read a whole later backlog: a bitmap scan and a sort at 100,000 rows with none passed.
     */
    private static String front(int kind, String time, String rows) {
        return """
                (SELECT clock, %2$s AS at, %1$d AS kind, true AS passed FROM %3$s
                    AND %2$s <= (SELECT ms FROM now) ORDER BY %2$s LIMIT %%1$d)
                UNION ALL
                (SELECT clock, %2$s, %1$d, false FROM %3$s
                    AND %2$s > (SELECT ms FROM now) ORDER BY %2$s LIMIT 1)""".formatted(kind, time, rows);
    }

    /**
     * A look: the database's now, how many passed times it read, and the clocks with something due or coming. System
     * clocks' times are the database's clock, so each kind is read over all of them from one global index of their
     * rows only ({@code timers_system_due}, {@code deliveries_system_leases}, {@code deliveries_system_retries},
     * V18–V21): at most the window's passed times of each kind (the front of the index up to now) and the first time
     * after now, so the look costs what is due, whatever the number of clocks and rows. Scaled clocks' times are in their own
     * frame: they are read per clock ({@link #perClock}, found by {@code clocks_scaled}); virtual clocks' never come
     * by themselves. A clock's row is the minimum of each kind over what was read of it. {@code OFFSET 0} keeps the
     * scaled subquery from being pulled up, which would run each probe again in the outer WHERE.
     *
     * <p>The window, the most passed times read per kind, is {@code %1$d} in this text, written in by {@link #look}
     * when the loop is built: with no parameter, PostgreSQL plans the statement once per connection (pgjdbc prepares
     * it on the server from its fifth execution) and runs that plan until an {@code ANALYZE} of a table it reads
     * replaces it. With the window a parameter, the generic plan assumed a tenth of the index read, which at
     * 10,000,000 rows cost more than a plan for the bound value: PostgreSQL planned every look again (about 1 ms,
     * against 0.2 ms of execution), and at 10,000 rows it did not.
     */
    static final String LOOK = """
            WITH now AS MATERIALIZED (SELECT db_now_ms() AS ms),
            fronts AS (
            """ + front(0, "fire_time", "timers WHERE system_clock") + """
                UNION ALL
            """ + front(1, "lease_until", "deliveries WHERE system_clock AND state = 'in_flight'") + """
                UNION ALL
            """ + front(2, "retry_at", "deliveries WHERE system_clock AND state = 'waiting'") + """
            )
            SELECT now.ms, (SELECT count(*) FROM fronts WHERE passed), due.name, due.fire_time, due.lease_until,
                   due.retry_at, due.rate_millionths, due.anchor_wall, due.now_ms
              FROM now
              LEFT JOIN (
                SELECT clock AS name, NULL::bigint AS rate_millionths, NULL::bigint AS anchor_wall,
                       NULL::bigint AS now_ms, min(at) FILTER (WHERE kind = 0) AS fire_time,
                       min(at) FILTER (WHERE kind = 1) AS lease_until, min(at) FILTER (WHERE kind = 2) AS retry_at
                  FROM fronts GROUP BY clock
                UNION ALL
                SELECT * FROM (""" + perClock("c.mode = 'scaled' OFFSET 0") + """
            ) scaled
                 WHERE fire_time IS NOT NULL OR lease_until IS NOT NULL OR retry_at IS NOT NULL) due ON true""";

    /** {@link #LOOK} with its window, the most passed times read per kind, in the text: no parameter. */
    static String look(int window) {
        return LOOK.formatted(window);
    }

    /**
     * What comes next on the clocks named (system or scaled), read per clock ({@link #perClock}) after a look's
     * rounds: the clocks it worked on, so O(due) as well. The database's now on the first column, 0 on the second,
     * then as {@link #LOOK}. Parameter: the clocks' names.
     */
    static final String NEXT_ON = """
            SELECT now.ms, 0, due.name, due.fire_time, due.lease_until, due.retry_at, due.rate_millionths,
                   due.anchor_wall, due.now_ms
              FROM (SELECT db_now_ms() AS ms) now
              LEFT JOIN (
                SELECT * FROM (""" + perClock("c.name = ANY (?::text[]) AND c.mode <> 'virtual' OFFSET 0")
            + """
            ) per_clock
                 WHERE fire_time IS NOT NULL OR lease_until IS NOT NULL OR retry_at IS NOT NULL) due ON true""";

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
     * What {@link #LOOK} or {@link #NEXT_ON} read: the database's now, how many passed times of system clocks it read
     * (0 for {@code NEXT_ON}), and the clocks with something.
     */
    private record Read(long dbNowMillis, long passedRead, List<EarliestDue> clocks) {
    }

    private final PostgresDeliveries deliveries;
    private final LeaseReleaser leases;
    private final Jdbc jdbc;
    private final ClockSkew skew;
    private final FiringAlarm alarm;
    private final Settings settings;
    /** {@link #LOOK} with the round size as its window. */
    private final String look;
    /** Told of each firing round as the memory store's firing thread tells of it: an advance. */
    private final SchedulerMetrics metrics;
    /** {@code timeservice.deliveries.max}, for the sample's held-back clocks. */
    private final LongSupplier maxDeliveries;
    private final Thread thread;
    /** Takes the gauges' samples on a thread of its own: a sample scans rows, and firing must not wait for it. */
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread sampling = new Thread(task, "timeservice-postgres-sample");
        sampling.setDaemon(true);
        return sampling;
    });
    private volatile boolean stopped;
    // Written by the loop's thread only.
    private long nextPurge = Long.MIN_VALUE;
    private long pauseMillis = FIRST_PAUSE_MILLIS;
    private volatile boolean failing;
    private final AtomicLong failedLooks = new AtomicLong();
    private volatile long lagMillis;
    private volatile long lastLookWallMillis;
    private volatile StoreSample sample;

    PostgresFiringLoop(PostgresDeliveries deliveries, LeaseReleaser leases, Jdbc jdbc, ClockSkew skew, FiringAlarm alarm,
                       Settings settings, SchedulerMetrics metrics, LongSupplier maxDeliveries) {
        this.deliveries = deliveries;
        this.leases = leases;
        this.jdbc = jdbc;
        this.skew = skew;
        this.alarm = alarm;
        this.settings = settings;
        this.look = look(settings.roundSize());
        this.metrics = metrics;
        this.maxDeliveries = maxDeliveries;
        this.thread = new Thread(this::run, "timeservice-postgres-firing");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
        sampler.scheduleWithFixedDelay(this::takeSample, 0, settings.samplePeriod().toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Stops the thread and waits for it to finish its look. */
    @Override
    public void close() {
        stopped = true;
        alarm.stop();
        sampler.shutdownNow();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
            sampler.awaitTermination(10, TimeUnit.SECONDS);
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
        return sample;
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
            for (EarliestDue after : read(NEXT_ON, (connection, select) ->
                    select.setArray(1, connection.createArrayOf("text", names))).clocks()) {
                // still due: held by another transaction (another loop, an edit); look again soon in case it rolls
                // back rather than commits
                wake = Math.min(wake, after.any() <= now ? now + SKIPPED_RETRY_MILLIS : after.any());
            }
        }
        lagMillis = earliestPassed == Long.MAX_VALUE ? 0 : now - earliestPassed;
        if (now >= nextPurge) {
            int purged = leases.purgeAcked(settings.ackedRetention().toMillis(), settings.roundSize());
            nextPurge = purged >= settings.roundSize() ? now : now + Math.max(MIN_PURGE_EVERY_MILLIS,
                    Math.min(settings.slowPoll().toMillis(), settings.ackedRetention().toMillis()));
            more |= purged >= settings.roundSize();
        }
        wake = Math.min(wake, nextPurge);
        lastLookWallMillis = System.currentTimeMillis();
        return new Look(now, lookNanos, wake, more);
    }

    /** Binds a statement's parameters. */
    @FunctionalInterface
    private interface Binding {
        void bind(Connection connection, PreparedStatement statement) throws SQLException;
    }

    /** Runs the look ({@link #look}) or {@link #NEXT_ON} with its parameters bound. */
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

    /** Samples the gauges' figures; a failure keeps the last sample (the looks log the outage). */
    private void takeSample() {
        try {
            sample = StoreSample.take(jdbc, skew, maxDeliveries.getAsLong());
        } catch (RuntimeException unavailable) {
            LOG.log(System.Logger.Level.DEBUG, "no gauge sample this period: " + unavailable.getMessage());
        }
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
        } catch (SchedulerException refused) {
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
