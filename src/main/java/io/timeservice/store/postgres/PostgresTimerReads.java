package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.ProblemException;
import io.timeservice.model.FiringPosition;
import io.timeservice.model.QueueListing;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;

/**
 * The reads of the PostgreSQL store's pending timers (table {@code timers}): one timer, the front of a clock's queue
 * (preview and peek) and the clock at a glance, with the memory store's answers and refusals (the {@code TimerStore}
 * port's contract). Each read is one statement ({@link TimerSql}), so it sees one snapshot, and changes nothing; a
 * missing clock is {@code clock_not_found}, read again only when the statement found no clock.
 *
 * <p>Thread-safe: each call runs on a connection of its own, in autocommit. Costs: a timer by id is one index
 * lookup; a preview reads the front of the clock's firing-order index, O(k log n) for k timers; a search by id prefix
 * reads the k timers that match (O(k log k), sorted into firing order) or, when the planner expects most to match, the
 * front of the firing order; the pending count is the sum of the clock's few rows in {@code timer_counts}, O(1) as
 * the memory store's (V45).
 */
public final class PostgresTimerReads {

    /** Above every character an id may hold (the id rules allow only ASCII below it): the end of a prefix's range. */
    private static final String ID_CEILING = "\u007F";

    private final Jdbc jdbc;

    PostgresTimerReads(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** @throws ProblemException {@code clock_not_found} or {@code timer_not_found} */
    public Timer get(String clock, String id) {
        return jdbc.autocommit(connection -> {
            try (PreparedStatement select = connection.prepareStatement(TimerSql.GET)) {
                select.setString(1, id);
                select.setString(2, clock);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        ClockRows.require(connection, clock, ""); // throws clock_not_found
                    }
                    if (row.getString(1) == null) {
                        throw TimerRules.timerNotFound(id);
                    }
                    return TimerRows.timerAt(row, 1);
                }
            }
        });
    }

    /**
     * The pending timers due at or before {@code dueBy}, at most {@code limit}, in firing order, with the clock's now
     * and its pending count, read in one snapshot; changes nothing.
     *
     * @throws ProblemException {@code clock_not_found} or {@code invalid_limit}
     */
    public QueueListing dueBy(String clock, long dueBy, int limit) {
        return listing(clock, limit, TimerSql.DUE_BY, select -> {
            select.setString(1, clock);
            select.setString(2, clock);
            select.setLong(3, dueBy);
            select.setInt(4, limit);
            select.setString(5, clock);
        });
    }

    /**
     * A page of the pending timers in firing order after {@code after} (null: from the first) whose id starts with
     * {@code idPrefix} (null: any), at most {@code limit}, read in one snapshot as {@link #dueBy} reads.
     *
     * @throws ProblemException {@code clock_not_found} or {@code invalid_limit}
     */
    public QueueListing page(String clock, FiringPosition after, String idPrefix, int limit) {
        String sql = idPrefix == null ? (after == null ? TimerSql.PAGE : TimerSql.PAGE_AFTER)
                : after == null ? TimerSql.PAGE_PREFIX : TimerSql.PAGE_PREFIX_AFTER;
        return listing(clock, limit, sql, select -> {
            select.setString(1, clock);
            select.setString(2, clock);
            int next = 3;
            if (after != null) {
                select.setLong(next++, after.fireTime());
                select.setInt(next++, after.priority());
                select.setLong(next++, after.sequence());
            }
            if (idPrefix != null) {
                // a text PostgreSQL cannot hold (U+0000) starts no id: the empty range
                boolean storable = idPrefix.indexOf('\0') < 0;
                select.setString(next++, storable ? idPrefix : ID_CEILING);
                select.setString(next++, (storable ? idPrefix : "") + ID_CEILING);
            }
            select.setInt(next++, limit);
            select.setString(next, clock);
        });
    }

    /** Runs one of the listing statements: now, pending count, then the listed timers' columns (null for none). */
    private QueueListing listing(String clock, int limit, String sql, Jdbc.Parameters binder) {
        return jdbc.autocommit(connection -> {
            if (limit < 1) {
                ClockRows.require(connection, clock, "");
                TimerRules.requireLimit(limit);
            }
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                binder.bind(select);
                try (ResultSet rows = select.executeQuery()) {
                    if (!rows.next()) {
                        ClockRows.require(connection, clock, ""); // throws clock_not_found
                    }
                    long now = rows.getLong(1);
                    int size = rows.getInt(2);
                    List<Timer> timers = new ArrayList<>();
                    do {
                        if (rows.getString(3) != null) {
                            timers.add(TimerRows.timerAt(rows, 3));
                        }
                    } while (rows.next());
                    return new QueueListing(now, size, timers);
                }
            }
        });
    }

    /** The first {@code limit} pending timers in firing order. */
    public QueueListing firstN(String clock, int limit) {
        return dueBy(clock, Long.MAX_VALUE, limit);
    }

    /** The next timer to fire. @throws ProblemException {@code clock_not_found} or {@code queue_empty} */
    public Timer peek(String clock) {
        List<Timer> first = firstN(clock, 1).timers();
        if (first.isEmpty()) {
            throw TimerRules.queueEmpty();
        }
        return first.get(0);
    }

    /**
     * The clock at a glance (now, pending count, next fire time, the oldest pending timer's creation) in one
     * snapshot, each part an index lookup.
     *
     * @throws ProblemException {@code clock_not_found}
     */
    public QueueStatus status(String clock) {
        return jdbc.autocommit(connection -> {
            QueueStatus status = Jdbc.queryFirst(connection, TimerSql.STATUS, select -> {
                        select.setString(1, clock);
                        select.setString(2, clock);
                        select.setString(3, clock);
                        select.setString(4, clock);
                    },
                    row -> new QueueStatus(row.getLong(1), row.getInt(2), row.getObject(3, Long.class),
                            row.getObject(4, Long.class), row.getObject(5, Long.class)));
            if (status == null) {
                ClockRows.require(connection, clock, ""); // throws clock_not_found
            }
            return status;
        });
    }

    /** The pending timer {@code id} of {@code clock} as the caller's transaction sees it (it is there). */
    static Timer pendingTimer(Connection connection, String clock, String id) throws SQLException {
        return Jdbc.queryOne(connection, TimerSql.PENDING, select -> {
            select.setString(1, clock);
            select.setString(2, id);
        }, row -> TimerRows.timerAt(row, 1));
    }
}
