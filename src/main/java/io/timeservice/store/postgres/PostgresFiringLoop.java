package io.timeservice.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.timeservice.core.ErrorCode;
import io.timeservice.core.SchedulerException;

/**
 * The one thread per instance that makes time pass on the PostgreSQL store: it fires the due timers of every system
 * clock into their ready queues ({@link PostgresDeliveries#fireDue}), turns expired leases into retries and due
 * retries into ready deliveries on every clock ({@link PostgresDeliveries#releaseDue}), and deletes acknowledged
 * deliveries older than the retention. Then it sleeps until the next due time it knows of.
 *
 * <p>Every instance runs it over every clock: {@code SKIP LOCKED} gives concurrent loops disjoint rows, so each
 * timer fires once however many loops look. A look is one statement that reads, per clock, the earliest timer of a
 * system clock, lease end and retry time from the indexes' fronts ({@code timers_firing_order},
 * {@code deliveries_leases}, {@code deliveries_waiting}): O(clocks) index probes, no scan of rows. Times are the
 * database's clock, and the sleep is their distance from the database's now at the look ({@link FiringAlarm}), so
 * instances with skewed wall clocks fire on the same time.
 *
 * <p>Waking. A change on this instance that comes due sooner than the planned wake-up (an add or edit on a system
 * clock, a claim's lease, a nack's retry) wakes the loop after its commit, so the instance that accepted it fires it
 * on time; other instances learn of it at their next known due time or their slow poll, which bounds how late a
 * timer fires when the instance that accepted it died. No NOTIFY per add: NOTIFY takes a database-wide lock at
 * commit, which would serialize every add of every instance.
 *
 * <p>Bounded work: each statement moves at most {@code roundSize} rows of one clock; a look whose round was full
 * (or that made retries wait) looks again at once, behind the other clocks due in the same look. Database failures
 * never end the thread: the first one of an outage is logged, later ones are not until a look succeeds again, and
 * looks are retried after a pause that doubles up to a second.
 */
public final class PostgresFiringLoop implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PostgresFiringLoop.class.getName());

    /**
     * Acknowledged deliveries past their retention are purged (one round per look) every slow poll, or every
     * retention if that is shorter, but not more often than this.
     */
    private static final long MIN_PURGE_EVERY_MILLIS = 100;
    /**
     * A clock found due that gave this loop nothing was held by another transaction (another instance's loop, an
     * edit): looked at again this soon, in case that transaction rolls back rather than commits.
     */
    private static final long SKIPPED_RETRY_MILLIS = 100;
    private static final long FIRST_PAUSE_MILLIS = 50;
    private static final long MAX_PAUSE_MILLIS = 1_000;

    /**
     * Per clock with something to do now or later: the earliest pending timer of a system clock, and the earliest
     * one after now; the same for lease ends and retry times. Each is the front of an index range
     * ({@code timers_firing_order}, {@code deliveries_leases}, {@code deliveries_waiting}). The database's now comes
     * back even when no clock has anything.
     */
    private static final String NEXT_DUE = """
            SELECT now.ms, next.name, next.first_fire, next.next_fire, next.first_release, next.next_release
              FROM (SELECT db_now_ms() AS ms) now
              LEFT JOIN (
                SELECT * FROM (
                  SELECT c.name,
                         CASE WHEN c.mode = 'system' THEN (SELECT min(fire_time) FROM timers
                                                            WHERE clock = c.name) END AS first_fire,
                         CASE WHEN c.mode = 'system' THEN (SELECT min(fire_time) FROM timers
                                                            WHERE clock = c.name AND fire_time > db_now_ms())
                              END AS next_fire,
                         least((SELECT min(lease_until) FROM deliveries WHERE clock = c.name AND state = 'in_flight'),
                               (SELECT min(retry_at) FROM deliveries WHERE clock = c.name AND state = 'waiting'))
                             AS first_release,
                         least((SELECT min(lease_until) FROM deliveries WHERE clock = c.name AND state = 'in_flight'
                                   AND lease_until > db_now_ms()),
                               (SELECT min(retry_at) FROM deliveries WHERE clock = c.name AND state = 'waiting'
                                   AND retry_at > db_now_ms())) AS next_release
                    FROM clocks c) per_clock
                 WHERE first_fire IS NOT NULL OR first_release IS NOT NULL) next ON true""";

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
     * What one look did.
     *
     * @param dbNowMillis the database's now at the look, read at {@code lookNanos} ({@link System#nanoTime})
     * @param wakeMillis  when the next look is planned (the database's clock), unless a change comes sooner
     * @param more        a round was full or retries were scheduled: look again at once
     */
    record Look(long dbNowMillis, long lookNanos, int fired, int released, int purged, long wakeMillis,
                boolean more) {
    }

    /** A clock's earliest due times: of all (first), and of those after the look's now (next); null: none. */
    private record NextDue(String clock, Long firstFire, Long nextFire, Long firstRelease, Long nextRelease) {
    }

    private final PostgresDeliveries deliveries;
    private final Jdbc jdbc;
    private final ClockSkew skew;
    private final FiringAlarm alarm;
    private final Settings settings;
    private final Thread thread;
    private volatile boolean stopped;
    // Written by the loop's thread only.
    private long nextPurge = Long.MIN_VALUE;
    private long nextSample = Long.MIN_VALUE;
    private long pauseMillis = FIRST_PAUSE_MILLIS;
    private volatile boolean failing;
    private volatile long lagMillis;
    private volatile long lastLookWallMillis;
    private volatile StoreSample sample;

    PostgresFiringLoop(PostgresDeliveries deliveries, Jdbc jdbc, ClockSkew skew, FiringAlarm alarm,
                       Settings settings) {
        this.deliveries = deliveries;
        this.jdbc = jdbc;
        this.skew = skew;
        this.alarm = alarm;
        this.settings = settings;
        this.thread = new Thread(this::run, "timeservice-postgres-firing");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Stops the thread and waits for it to finish its look. */
    @Override
    public void close() {
        stopped = true;
        alarm.stop();
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

    /** The gauges' last sample, null until the first look took one. */
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
     * One look: fires, releases and purges what is due by the database's clock, samples the gauges when their period
     * has passed, and plans the next look. The thread calls it; tests call it directly (with no thread started).
     */
    Look look() {
        long lookNanos = System.nanoTime();
        List<NextDue> next = new ArrayList<>();
        long now = jdbc.autocommit(connection -> {
            try (PreparedStatement select = connection.prepareStatement(NEXT_DUE);
                 ResultSet rows = select.executeQuery()) {
                long dbNow = 0;
                while (rows.next()) {
                    dbNow = rows.getLong(1);
                    if (rows.getString(2) != null) {
                        next.add(new NextDue(rows.getString(2), rows.getObject(3, Long.class),
                                rows.getObject(4, Long.class), rows.getObject(5, Long.class),
                                rows.getObject(6, Long.class)));
                    }
                }
                return dbNow;
            }
        });
        int fired = 0;
        int released = 0;
        boolean more = false;
        long wake = saturatedPlus(now, settings.slowPoll().toMillis());
        long earliestPassed = Long.MAX_VALUE;
        for (NextDue due : next) {
            if (orMax(due.firstFire()) <= now) {
                earliestPassed = Math.min(earliestPassed, due.firstFire());
                int firedNow = fire(due.clock());
                fired += firedNow;
                more |= firedNow >= settings.roundSize();
                wake = firedNow == 0 ? Math.min(wake, now + SKIPPED_RETRY_MILLIS) : wake;
            }
            if (orMax(due.firstRelease()) <= now) {
                earliestPassed = Math.min(earliestPassed, due.firstRelease());
                int releasedNow = release(due.clock());
                released += releasedNow;
                more |= releasedNow > 0; // expired leases now wait for retry times this look did not read
                wake = releasedNow == 0 ? Math.min(wake, now + SKIPPED_RETRY_MILLIS) : wake;
            }
            wake = Math.min(wake, Math.min(orMax(due.nextFire()), orMax(due.nextRelease())));
        }
        lagMillis = earliestPassed == Long.MAX_VALUE ? 0 : now - earliestPassed;
        int purged = 0;
        if (now >= nextPurge) {
            purged = deliveries.purgeAcked(settings.ackedRetention().toMillis(), settings.roundSize());
            nextPurge = purged >= settings.roundSize() ? now : now + Math.max(MIN_PURGE_EVERY_MILLIS,
                    Math.min(settings.slowPoll().toMillis(), settings.ackedRetention().toMillis()));
            more |= purged >= settings.roundSize();
        }
        if (now >= nextSample) {
            sample = StoreSample.take(jdbc, skew);
            nextSample = now + settings.samplePeriod().toMillis();
        }
        wake = Math.min(wake, Math.min(nextPurge, nextSample));
        lastLookWallMillis = System.currentTimeMillis();
        return new Look(now, lookNanos, fired, released, purged, wake, more);
    }

    /** One round of {@code clock}'s due timers; 0 when the clock was deleted since the look. */
    private int fire(String clock) {
        try {
            return deliveries.fireDue(clock, settings.roundSize());
        } catch (SchedulerException refused) {
            if (refused.code() == ErrorCode.CLOCK_NOT_FOUND) {
                return 0;
            }
            throw refused;
        }
    }

    /** One round of {@code clock}'s expired leases and due retries. */
    private int release(String clock) {
        // the default policy until per-clock policies are stored (clocks.settings): the same as nack uses
        return deliveries.releaseDue(clock, RetryPolicy.DEFAULT, settings.roundSize());
    }

    private void failed(Throwable failure) {
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

    private static long saturatedPlus(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
