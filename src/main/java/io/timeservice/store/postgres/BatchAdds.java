package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.timeservice.model.BatchOp;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;

/**
 * A run of consecutive adds of one batch, inserted by one statement instead of one per add (a batch of 100 adds was
 * 100 round trips), each decided exactly as its single add decides it, in order: id syntax, due time (in Java),
 * an id of the form of an existing schedule's occurrences, then a duplicate of a pending id or of an earlier add of
 * the run. The adds before the first refused one are inserted; the caller refuses the whole batch, whose transaction
 * then rolls them back.
 *
 * <p>Sequences are drawn in the run's order: the SELECT is sorted by position, and PostgreSQL evaluates a volatile
 * target expression (the column default's {@code nextval}) after the sort. Call on the batch's transaction only,
 * with the clock's row held {@code FOR SHARE}.
 */
final class BatchAdds {

    private BatchAdds() {
    }

    /**
     * What a run decided: the timers added before the first refused add, in order, and that add's refusal (null when
     * every add was accepted; its index in the run is {@code added.size()}).
     */
    record Outcome(List<Timer> added, ProblemException refusal) {
    }

    static Outcome insert(Connection connection, StoredClock clock, List<BatchOp.Add> adds,
                          PostgresReservations reservations) throws SQLException {
        long now = clock.now();
        int checked = 0;
        long[] fireTimes = new long[adds.size()];
        ProblemException refusal = null;
        for (; checked < adds.size(); checked++) {
            BatchOp.Add add = adds.get(checked);
            try {
                TimerRules.requireValidId(add.id());
                TimerRules.requireValidKey(add.key());
                fireTimes[checked] = TimeRules.fireTime(now, add.due());
                String owner = ScheduleRules.occurrenceFormOwner(add.id());
                if (owner != null && ScheduleRows.exists(connection, clock.name(), owner)) {
                    throw ScheduleRules.scheduleReserved(add.id(), owner);
                }
                reservations.requireAddable(connection, clock, add.id());
            } catch (ProblemException refused) {
                refusal = refused;
                break;
            }
        }
        Map<String, Long> sequences = insert(connection, clock, adds.subList(0, checked), fireTimes);
        List<Timer> added = new ArrayList<>(checked);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < checked; i++) {
            BatchOp.Add add = adds.get(i);
            Long sequence = sequences.get(add.id());
            if (!seen.add(add.id()) || sequence == null) {
                return new Outcome(added, TimerRules.duplicateId(add.id()));
            }
            try {
                PostgresTimerChanges.requireNotReservedMeanwhile(connection, clock, add.id());
            } catch (ProblemException reserved) {
                return new Outcome(added, reserved);
            }
            added.add(new Timer(add.id(), fireTimes[i], add.priority(), sequence, 1, now, add.payload(), null,
                    add.traceContext(), add.key()));
        }
        return new Outcome(added, refusal);
    }

    /** Runs {@link TimerSql#INSERT_RUN} for {@code adds}; answers the sequence of each id inserted. */
    private static Map<String, Long> insert(Connection connection, StoredClock clock, List<BatchOp.Add> adds,
                                            long[] fireTimes) throws SQLException {
        if (adds.isEmpty()) {
            return Map.of();
        }
        int n = adds.size();
        String[] ids = new String[n];
        Long[] times = new Long[n];
        Integer[] priorities = new Integer[n];
        String[] payloads = new String[n];
        Long[] bytes = new Long[n];
        String[] traceContexts = new String[n];
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            BatchOp.Add add = adds.get(i);
            ids[i] = add.id();
            times[i] = fireTimes[i];
            priorities[i] = add.priority();
            payloads[i] = add.payload();
            bytes[i] = Limits.bytesOf(add.id(), add.payload());
            traceContexts[i] = add.traceContext();
            keys[i] = add.key();
        }
        try (PreparedStatement insert = connection.prepareStatement(TimerSql.INSERT_RUN)) {
            insert.setString(1, clock.name());
            insert.setLong(2, clock.now());
            insert.setBoolean(3, clock.systemClockRows());
            insert.setArray(4, connection.createArrayOf("text", ids));
            insert.setArray(5, connection.createArrayOf("bigint", times));
            insert.setArray(6, connection.createArrayOf("integer", priorities));
            insert.setArray(7, connection.createArrayOf("text", payloads));
            insert.setArray(8, connection.createArrayOf("bigint", bytes));
            insert.setArray(9, connection.createArrayOf("text", traceContexts));
            insert.setArray(10, connection.createArrayOf("text", keys));
            Map<String, Long> sequences = new HashMap<>(n * 2);
            try (ResultSet rows = insert.executeQuery()) {
                while (rows.next()) {
                    sequences.put(rows.getString(1), rows.getLong(2));
                }
            }
            return sequences;
        }
    }
}
