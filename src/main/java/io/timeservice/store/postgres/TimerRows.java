package io.timeservice.store.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;

import io.timeservice.model.Timer;

/** How a timer row reads: the columns every query selects, in this order, and the {@link Timer} they make. */
final class TimerRows {

    static final String COLUMNS = "id, fire_time, priority, seq, version, created_at, payload, schedule, trace_context,"
            + " key";
    /** How many columns {@link #COLUMNS} names. */
    static final int WIDTH = 10;
    /** The same columns of a table or CTE aliased {@code t}. */
    static final String T_COLUMNS = "t.id, t.fire_time, t.priority, t.seq, t.version, t.created_at, t.payload,"
            + " t.schedule, t.trace_context, t.key";
    /** The firing order, as every ordered query and the firing-order indexes spell it. */
    static final String FIRING_ORDER = "fire_time, priority, seq";

    private TimerRows() {
    }

    /** The timer in the {@link #COLUMNS} starting at column {@code first} of the current row. */
    static Timer timerAt(ResultSet row, int first) throws SQLException {
        return new Timer(row.getString(first), row.getLong(first + 1), row.getInt(first + 2), row.getLong(first + 3),
                row.getLong(first + 4), row.getLong(first + 5), row.getString(first + 6), row.getString(first + 7),
                row.getString(first + 8), row.getString(first + 9));
    }
}
