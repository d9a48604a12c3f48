package io.timeservice.store.postgres;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import javax.sql.DataSource;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.CronParser;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.ProblemException;
import io.timeservice.model.ScheduleRules;
import io.timeservice.store.MeasuredDeliveryStore;
import io.timeservice.store.MeasuredTimerStore;
import io.timeservice.store.StoreMetrics;

/**
 * The PostgreSQL store ({@code timeservice.store=postgresql}, issue 18) on a {@link DataSource} whose schema
 * Flyway has migrated from {@link #MIGRATIONS}: its clocks, timers and deliveries, sharing one pending budget.
 * Plain JDBC, no Spring; every part is thread-safe and may run in any number of instances on one database.
 * See docs/POSTGRES-STORE.md for the schema, the claim statement and what is still missing.
 */
public final class PostgresStore implements AutoCloseable {

    /** Where the schema's Flyway migrations live in the jar. */
    public static final String MIGRATIONS = "classpath:db/timeservice";
    /**
     * Flyway settings every migration of {@link #MIGRATIONS} needs: its session lock instead of a transaction held
     * open for the whole run, since a {@code CREATE INDEX CONCURRENTLY} (how every index after V3 is built, so that
     * a rolling upgrade never blocks writes; docs/POSTGRES-STORE.md) waits for every open transaction, Flyway's own
     * included, and would wait for ever (flyway/flyway#3497, #3682).
     */
    public static final Map<String, String> FLYWAY_SETTINGS = Map.of("flyway.postgresql.transactional.lock", "false");
    /** How often a long-polling claim looks again when no notification comes (none lost, none listened for). */
    public static final Duration DEFAULT_SLOW_POLL = Duration.ofSeconds(1);

    private final PostgresClockRegistry clocks;
    private final PostgresTimerReads timerReads;
    private final PostgresTimerChanges timerChanges;
    private final PostgresClockFiring clockFiring;
    private final PostgresSchedules schedules;
    private final PostgresDeliveries deliveries;
    private final LeaseReleaser leases;
    private final PostgresDeadLetters deadLetters;
    private final ClockSkew skew;
    private final Jdbc jdbc;
    private final ReadyWakeups wakeups;
    private final FiringAlarm alarm = new FiringAlarm();
    private volatile PostgresFiringLoop firing; // null until startFiring; started under this

    private final StoreMetrics metrics;
    private final PendingBudgetStripes budget;
    private final PostgresReservations reservations = new PostgresReservations();
    private final PostgresClockCopy clockCopy;
    private final PostgresFlowKeys flowKeys;
    private final PostgresClockSnapshots clockSnapshots;

    /**
     * How long one transaction of the store waits for a row lock, and how long each of its statements may run, before
     * the call answers {@code storage_unavailable} with nothing changed ({@link Jdbc}). The lock timeout is kept below
     * the pool's connection timeout, so that calls waiting for one busy clock give their connections back before calls
     * on other clocks give up waiting for one.
     */
    public record Timeouts(Duration lock, Duration statement) {

        /** {@code timeservice.postgresql.lock-timeout} and {@code statement-timeout}'s defaults. */
        public static final Timeouts DEFAULT = new Timeouts(Duration.ofSeconds(2), Duration.ofMinutes(1));

        public Timeouts {
            if (lock.toMillis() < 1 || statement.toMillis() < 1) { // 0 would mean "no timeout" to PostgreSQL
                throw new IllegalArgumentException("timeouts must be at least 1 ms: lock " + lock + ", statement "
                        + statement);
            }
        }
    }

    private PostgresStore(Jdbc jdbc, DataSource dataSource, PendingBudgetStripes budget, int maxClocks,
                          StoreMetrics metrics, Schedules schedules) {
        this.wakeups = new ReadyWakeups(dataSource, DEFAULT_SLOW_POLL);
        this.budget = budget;
        this.clocks = new PostgresClockRegistry(jdbc, budget, maxClocks, alarm);
        this.clockCopy = new PostgresClockCopy(jdbc, budget, maxClocks);
        this.clockSnapshots = new PostgresClockSnapshots(jdbc, budget, maxClocks, schedules.parser());
        this.flowKeys = new PostgresFlowKeys(jdbc);
        ScheduleFiring firingOfSchedules = new ScheduleFiring(schedules.parser(), schedules.maxCatchUp());
        this.timerReads = new PostgresTimerReads(jdbc);
        this.timerChanges = new PostgresTimerChanges(jdbc, budget, alarm, reservations);
        this.clockFiring = new PostgresClockFiring(jdbc, budget, metrics, firingOfSchedules);
        this.deliveries = new PostgresDeliveries(jdbc, budget, wakeups, alarm, metrics);
        this.schedules = new PostgresSchedules(jdbc, budget, alarm, firingOfSchedules, schedules.max());
        this.leases = new LeaseReleaser(jdbc, metrics);
        this.deadLetters = new PostgresDeadLetters(jdbc, budget, metrics);
        this.metrics = metrics;
        this.skew = new ClockSkew(jdbc, InstantSource.system());
        this.jdbc = jdbc;
    }

    /**
     * Whether the database answers now (readiness): false while connections cannot be had or are lost, which is
     * when every call answers {@code storage_unavailable}. Waits at most the pool's connection timeout.
     */
    public boolean reachable() {
        try {
            return jdbc.autocommit(connection -> connection.isValid(2));
        } catch (ProblemException unavailable) {
            if (unavailable.code() != ErrorCode.STORAGE_UNAVAILABLE) {
                throw unavailable;
            }
            return false;
        }
    }

    /**
     * Opens the store: makes the budget's allowances follow this capacity and creates the default clock in
     * {@code defaultClockMode} unless it exists.
     *
     * @param capacity      the most pending timers and unacknowledged deliveries over all clocks
     * @param capacityBytes the most id and payload characters they may hold together
     * @param maxClocks     the most clocks, the default one included
     */
    public static PostgresStore open(DataSource dataSource, int capacity, long capacityBytes, int maxClocks,
                                     ClockSettings.Mode defaultClockMode) {
        return open(dataSource, capacity, capacityBytes, maxClocks, defaultClockMode, StoreMetrics.NONE);
    }

    /**
     * Opens the store as {@link #open(DataSource, int, long, int, ClockSettings.Mode)} does, telling {@code metrics}
     * of the delivery events and fire lags its calls and its firing loop cause, and of the loop's rounds (the calls
     * themselves are timed at the store boundary, {@link MeasuredTimerStore}, {@link MeasuredDeliveryStore}).
     */
    public static PostgresStore open(DataSource dataSource, int capacity, long capacityBytes, int maxClocks,
                                     ClockSettings.Mode defaultClockMode, StoreMetrics metrics) {
        return open(dataSource, capacity, capacityBytes, maxClocks, defaultClockMode, metrics, Timeouts.DEFAULT);
    }

    /**
     * Opens the store as {@link #open(DataSource, int, long, int, ClockSettings.Mode, StoreMetrics)} does, its
     * transactions bounded by {@code timeouts}.
     */
    public static PostgresStore open(DataSource dataSource, int capacity, long capacityBytes, int maxClocks,
                                     ClockSettings.Mode defaultClockMode, StoreMetrics metrics,
                                     Timeouts timeouts) {
        return open(dataSource, capacity, capacityBytes, maxClocks, defaultClockMode, metrics, timeouts,
                Schedules.DEFAULT);
    }

    /**
     * Opens the store as {@link #open(DataSource, int, long, int, ClockSettings.Mode, StoreMetrics, Timeouts)}
     * does, its recurring schedules bounded by {@code schedules}.
     */
    public static PostgresStore open(DataSource dataSource, int capacity, long capacityBytes, int maxClocks,
                                     ClockSettings.Mode defaultClockMode, StoreMetrics metrics,
                                     Timeouts timeouts, Schedules schedules) {
        if (maxClocks < 1) {
            throw new IllegalArgumentException("maxClocks must be >= 1: " + maxClocks);
        }
        PendingBudgetStripes budget = new PendingBudgetStripes(capacity, capacityBytes);
        Jdbc jdbc = new Jdbc(dataSource, timeouts);
        jdbc.inTransaction(connection -> {
            budget.adopt(connection);
            return null;
        });
        PostgresStore store = new PostgresStore(jdbc, dataSource, budget, maxClocks, metrics, schedules);
        store.clocks.ensureDefault(defaultClockMode);
        return store;
    }

    /** Saved clocks: snapshots and loads. */
    public PostgresClockSnapshots clockSnapshots() {
        return clockSnapshots;
    }

    /** Overrides of single flow-control keys, and the busiest keys (issue 44). */
    public PostgresFlowKeys flowKeys() {
        return flowKeys;
    }

    /**
     * What the store's recurring schedules need: the one cron parser (so an expression means the same on every
     * store), {@code timeservice.schedules.max} and {@code max-catch-up}.
     */
    public record Schedules(CronParser parser, long max, int maxCatchUp) {

        /** Interval schedules only (a cron is refused as unparsable), the properties' default bounds. */
        public static final Schedules DEFAULT = new Schedules(ScheduleRules.NO_CRON, 100_000, 1_000);
    }

    /** Recurring schedules. */
    public PostgresSchedules schedules() {
        return schedules;
    }

    /** Forks of clocks ({@code copyOf}). */
    public PostgresClockCopy clockCopy() {
        return clockCopy;
    }

    public PostgresClockRegistry clocks() {
        return clocks;
    }

    /** Reads of pending timers: one timer, the front of a clock's queue, a clock at a glance. */
    public PostgresTimerReads timerReads() {
        return timerReads;
    }

    /** Changes of pending timers: add, edit, cancel, batches, a clock's reset. */
    public PostgresTimerChanges timerChanges() {
        return timerChanges;
    }

    /** Advances of virtual clocks, firing rounds of the clocks that fire by themselves. */
    public PostgresClockFiring clockFiring() {
        return clockFiring;
    }

    public PostgresDeliveries deliveries() {
        return deliveries;
    }

    /** Expired leases, due retries and the purge of acknowledged deliveries. */
    public LeaseReleaser leases() {
        return leases;
    }

    public PostgresDeadLetters deadLetters() {
        return deadLetters;
    }

    /**
     * Starts listening for ready deliveries of any instance ({@code LISTEN}, on one connection of the pool held for
     * the store's life), so long-polling claims answer as soon as something is ready; without it, and while its
     * connection is lost, they look again every {@code slowPoll}.
     */
    public void startWakeups(Duration slowPoll) {
        requirePositive(slowPoll);
        wakeups.start(slowPoll);
    }

    /**
     * Starts listening as {@link #startWakeups(Duration)} does, on connections of {@code direct} instead of the pool:
     * when the pool is behind a pooler in transaction mode ({@link TransactionPooling}), a {@code LISTEN} there would
     * listen on a server connection the next transaction of another client gets. Each reconnect opens a new
     * connection of {@code direct} (a multi-host URL with {@code targetServerType=primary} finds the new primary).
     */
    public void startWakeups(Duration slowPoll, DataSource direct) {
        requirePositive(slowPoll);
        wakeups.start(slowPoll, direct);
    }

    private static void requirePositive(Duration slowPoll) {
        if (slowPoll.isNegative() || slowPoll.isZero()) {
            throw new IllegalArgumentException("slowPoll must be positive: " + slowPoll);
        }
    }

    /**
     * Tells {@code listener} of every clock with deliveries that became ready on any instance, as this instance's
     * listener hears of them (once {@link #startWakeups} ran; lost notifications are not told).
     */
    public void onReady(java.util.function.Consumer<String> listener) {
        wakeups.onWake(listener);
    }

    ReadyWakeups wakeups() {
        return wakeups;
    }

    /**
     * Starts this instance's firing loop (once): system clocks' due timers fire, expired leases and due retries are
     * released, acknowledged deliveries are purged after their retention, and the gauges are sampled. See
     * {@link PostgresFiringLoop}.
     */
    public synchronized PostgresFiringLoop startFiring(PostgresFiringLoop.Settings settings) {
        if (firing == null) {
            firing = new PostgresFiringLoop(clockFiring, leases, jdbc, skew, alarm, settings, metrics,
                    budget::maxDeliveries);
            firing.start();
        }
        return firing;
    }

    /**
     * Bounds the unacknowledged deliveries (ready, in flight, waiting, dead) over every clock:
     * {@code timeservice.deliveries.max}, unbounded until called. At the limit system clocks keep their due timers
     * pending (held back) and advances of queueing virtual clocks fire only what has room, as in memory
     * ({@link DeliveryRoom}). Spreads the limit over the budget's stripes; every instance must be told the same.
     */
    /** Bounds the ids clocks' dedupe windows reserve, over every clock ({@code timeservice.dedupe.max-reservations}). */
    public void limitReservations(long max) {
        reservations.limit(max);
    }

    public void limitDeliveries(long max) {
        budget.limitDeliveries(max);
        jdbc.inTransaction(connection -> {
            budget.adopt(connection);
            return null;
        });
    }

    /** {@code timeservice.deliveries.max} as {@link #limitDeliveries} set it ({@link Long#MAX_VALUE}: unbounded). */
    public long maxDeliveries() {
        return budget.maxDeliveries();
    }

    /** The firing loop, null until {@link #startFiring}. */
    public PostgresFiringLoop firing() {
        return firing;
    }

    /** What tells this instance's firing loop about changes made here. */
    FiringAlarm alarm() {
        return alarm;
    }

    /** Stops the firing loop and the listener; the pool is the caller's. */
    @Override
    public void close() {
        PostgresFiringLoop loop = firing();
        if (loop != null) {
            loop.close();
        }
        wakeups.close();
    }

    /**
     * Whether the pending budget counts exactly the pending timers and unacknowledged deliveries
     * ({@link BudgetReconciliation}); reads all of them.
     */
    public InvariantReport.Check budgetMatchesRows() {
        return BudgetReconciliation.check(jdbc);
    }

    /** This instance's wall clock against the database's (the skew gauge). */
    public ClockSkew skew() {
        return skew;
    }

    /** The store's JDBC plumbing, for the package's read-only views. */
    Jdbc jdbc() {
        return jdbc;
    }
}
