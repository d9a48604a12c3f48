package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Wakes long-polling claimers of this instance when deliveries of their clock become ready on any instance.
 * Producers {@link #notify} in the transaction that makes rows ready ({@code pg_notify}, delivered at commit, so a
 * woken claimer sees the rows); one listener thread per instance holds a connection with {@code LISTEN} and turns
 * each notification into a wake-up of that clock's waiters.
 *
 * <p>Notifications can be lost (the listener's connection drops, or it was never started), so every wait also ends
 * after the slow poll, and a listener that reconnects wakes everyone once: what became ready while it was away is
 * then claimed at once rather than after a slow poll.
 *
 * <p>No lost wake-up: a claimer reads {@link #generation} before its claim finds nothing and waits only while the
 * generation is unchanged, so a notification between the empty claim and the wait still ends the wait.
 *
 * <p>Generations are ticks of one counter, not counts per clock, so that the clocks nobody waits on can be forgotten
 * (every notified clock name used to stay for the instance's life; issue 34, item 15): a forgotten clock's generation
 * becomes the highest tick ever forgotten, never lower than what a claimer may have read, and its next wake-up takes
 * a new tick, higher than that. A clock with waiters keeps its entry, so forgetting others never wakes them. Forgetting
 * runs when the map has grown to twice what the last forgetting left (at least {@link #MIN_REMEMBERED}): amortized
 * O(1) per wake-up, at most about twice the clocks waited on, or {@value #MIN_REMEMBERED}, remembered.
 */
final class ReadyWakeups implements AutoCloseable {

    static final String CHANNEL = "timeservice_ready";
    private static final String NOTIFY = "SELECT pg_notify('" + CHANNEL + "', ?)";
    /** Most a listener's round waits for notifications before it checks whether it should stop. */
    private static final int LISTEN_ROUND_MILLIS = 500;

    /** How long the listener waits for the database to answer its heartbeat before it connects anew. */
    private static final int HEARTBEAT_TIMEOUT_SECONDS = 2;
    /** How often a quiet listener asks the database whether its connection still works. */
    static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(5);

    /** Below this many remembered clocks nothing is forgotten. */
    static final int MIN_REMEMBERED = 1_024;

    /** Where the listener connects: the pool, or a direct connection when the pool is behind a transaction pooler. */
    private volatile DataSource dataSource;
    private final Object monitor = new Object();
    /** Per remembered clock: the tick of its last wake-up; guarded by {@link #monitor}. */
    private final Map<String, Long> generations = new HashMap<>();
    /** Per clock with waiters: how many; never forgotten while present; guarded by {@link #monitor}. */
    private final Map<String, Integer> waitersByClock = new HashMap<>();
    private long ticks; // the last tick handed out; guarded by monitor
    private long everyClock; // the tick of the last wake-up of all clocks at once (a reconnect); guarded by monitor
    private long forgotten; // the highest tick of a forgotten clock: its generation now; guarded by monitor
    private int forgetAbove = MIN_REMEMBERED; // guarded by monitor
    private int waiting; // guarded by monitor
    private volatile Duration slowPoll;
    private volatile boolean stopped;
    private volatile java.util.function.Consumer<String> wakeHook = clock -> { };
    private volatile int listens; // how many times the listener (re)started listening
    private volatile Duration heartbeat = DEFAULT_HEARTBEAT;
    private Thread listener;

    ReadyWakeups(DataSource dataSource, Duration slowPoll) {
        this.dataSource = dataSource;
        this.slowPoll = slowPoll;
    }

    /** Tells every instance's listener that {@code clock} has ready deliveries, when the caller's transaction commits. */
    static void notify(Connection connection, String clock) throws SQLException {
        try (PreparedStatement notify = connection.prepareStatement(NOTIFY)) {
            notify.setString(1, clock);
            notify.execute();
        }
    }

    /**
     * Starts the listener thread (once) and sets the slow poll that bounds every wait; the listener connects through
     * {@code listenSource} (a {@code LISTEN} needs a session of its own, which a transaction pooler does not keep).
     */
    synchronized void start(Duration newSlowPoll, DataSource listenSource) {
        this.dataSource = listenSource;
        start(newSlowPoll);
    }

    /** Starts the listener thread (once) and sets the slow poll that bounds every wait. */
    synchronized void start(Duration newSlowPoll) {
        this.slowPoll = newSlowPoll;
        if (listener == null) {
            listener = new Thread(this::listen, "timeservice-ready-listener");
            listener.setDaemon(true);
            listener.start();
        }
    }

    /** What a claimer reads before it looks for ready rows; see {@link #awaitChange}. */
    long generation(String clock) {
        synchronized (monitor) {
            return Math.max(generations.getOrDefault(clock, forgotten), everyClock);
        }
    }

    /**
     * Waits until {@code clock} was woken since {@code seen} was read, the slow poll passed, or {@code maxNanos}
     * passed, whichever comes first.
     */
    void awaitChange(String clock, long seen, long maxNanos) throws InterruptedException {
        long deadline = System.nanoTime() + Math.min(maxNanos, slowPoll.toNanos());
        synchronized (monitor) {
            waiting++;
            waitersByClock.merge(clock, 1, Integer::sum);
            // remembered while waited on, at the generation it has: forgetting other clocks cannot change it
            generations.putIfAbsent(clock, generation(clock));
            try {
                long left;
                while (generation(clock) == seen && (left = deadline - System.nanoTime()) > 0) {
                    TimeUnit.NANOSECONDS.timedWait(monitor, left);
                }
            } finally {
                waiting--;
                waitersByClock.computeIfPresent(clock, (name, count) -> count == 1 ? null : count - 1);
            }
        }
    }

    /** Claimers waiting now (for tests and a gauge). */
    int waiting() {
        synchronized (monitor) {
            return waiting;
        }
    }

    /** Sets how often a quiet listener checks its connection (tests shorten it). */
    void heartbeat(Duration every) {
        this.heartbeat = every;
    }

    /** How many times the listener has started listening (1 after the start, + 1 per reconnect). */
    int listens() {
        return listens;
    }

    /** How many clocks' generations are remembered now (for tests). */
    int remembered() {
        synchronized (monitor) {
            return generations.size();
        }
    }

    /** Hears every clock woken here (a pusher); see {@link io.timeservice.store.DeliveryStore#onReady}. */
    void onWake(java.util.function.Consumer<String> hook) {
        wakeHook = hook;
    }

    void wake(String clock) {
        wakeHook.accept(clock);
        synchronized (monitor) {
            generations.put(clock, ++ticks);
            if (generations.size() > forgetAbove) {
                forgetUnwaited();
            }
            monitor.notifyAll();
        }
    }

    void wakeEveryClock() {
        synchronized (monitor) {
            everyClock = ++ticks;
            monitor.notifyAll();
        }
    }

    /** Forgets every clock nobody waits on; see the class comment. Call only while holding {@link #monitor}. */
    private void forgetUnwaited() {
        var entries = generations.entrySet().iterator();
        while (entries.hasNext()) {
            var entry = entries.next();
            if (!waitersByClock.containsKey(entry.getKey())) {
                forgotten = Math.max(forgotten, entry.getValue());
                entries.remove();
            }
        }
        forgetAbove = Math.max(MIN_REMEMBERED, 2 * generations.size());
    }

    /** The listener thread: listens, turns notifications into wake-ups, reconnects after the slow poll when lost. */
    private void listen() {
        while (!stopped) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                try (Statement statement = connection.createStatement()) {
                    // named after the schema, so that an operator (or a test) can tell one store's listener apart
                    statement.execute("SELECT set_config('application_name', 'timeservice-listener-'"
                            + " || current_schema(), false)");
                    statement.execute("LISTEN " + CHANNEL);
                }
                listens++;
                wakeEveryClock(); // whatever became ready while nobody listened
                PGConnection notifications = connection.unwrap(PGConnection.class);
                long lastHeard = System.nanoTime();
                while (!stopped) {
                    PGNotification[] received = notifications.getNotifications(LISTEN_ROUND_MILLIS);
                    if (received == null || received.length == 0) { // a quiet round (pgjdbc answers either)
                        if (System.nanoTime() - lastHeard >= heartbeat.toNanos()) {
                            requireAlive(connection);
                            lastHeard = System.nanoTime();
                        }
                        continue;
                    }
                    lastHeard = System.nanoTime();
                    for (PGNotification notification : received) {
                        wake(notification.getParameter());
                    }
                }
            } catch (SQLException | RuntimeException lost) {
                pauseBeforeReconnect(); // the waits end by the slow poll meanwhile
            }
        }
    }

    /**
     * A quiet listener cannot tell a quiet database from a lost one: a primary that vanished without closing its
     * connections (a failover after a host or network failure) leaves the socket open and silent, and the listener
     * would wait on it for ever while the new primary's notifications go nowhere. So every {@link #heartbeat} of
     * silence it asks the server to answer; no answer within {@value #HEARTBEAT_TIMEOUT_SECONDS} s ends this
     * connection and it connects anew (a multi-host URL with {@code targetServerType=primary} finds the new primary).
     */
    private static void requireAlive(Connection connection) throws SQLException {
        if (!connection.isValid(HEARTBEAT_TIMEOUT_SECONDS)) {
            throw new SQLException("the listener's connection did not answer its heartbeat", "08006");
        }
    }

    private void pauseBeforeReconnect() {
        try {
            Thread.sleep(Math.min(slowPoll.toMillis(), 1_000));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }

    @Override
    public synchronized void close() {
        stopped = true;
        if (listener != null) {
            listener.interrupt();
            try {
                listener.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
