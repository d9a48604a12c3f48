package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.timeservice.model.Ack;
import io.timeservice.model.BatchOp;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Precondition;

/**
 * The PostgreSQL store's costs at {@code n} pending timers (issue 29, item 3), on the system clock {@code m} of a
 * schema of its own in the test database ({@link TestDatabase}), filled by one {@code INSERT ... SELECT
 * generate_series} (timers due about 11 days ahead, so none fires), vacuumed and analysed, then checkpointed, so that
 * neither autovacuum's first pass over the new rows nor the fill's dirty pages fall into the measurement; the pending
 * budget counts them.
 * Layouts: {@code one} (every timer on {@code m}) and {@code spread} (over 10,000 system clocks, {@code m} among
 * them). Run after {@code ./mvnw -B -ntp -Pjmh test-compile}; {@code bench/postgres-scale.sh} does both:
 * <pre>
 * java -cp "$(cat target/scale-classpath.txt):target/classes:target/test-classes" \
 *     io.timeservice.store.postgres.ScaleMeasurement one 10000
 * </pre>
 * <ul>
 * <li>add: a single add due in an hour (ahead of every pending timer), one transaction; cancelled again untimed;</li>
 * <li>fire: 100 timers due now added untimed (one batch), then one {@link PostgresClockFiring#fireDue} round;</li>
 * <li>claim, ack: a claim of those 100 deliveries, then one batch ack of them;</li>
 * <li>look: the firing loop's look ({@link FiringLookSql#look}, windows of {@value #LOOK_WINDOW} passed times,
 * the default round size), one statement, nothing due; look-bound: the same with the window a bound parameter, the
 * form before the loop wrote it into the text (PostgreSQL plans it at each execution when the generic plan costs
 * more); then both again after a {@code VACUUM} of both tables (look-vacuumed, look-bound-vacuumed).</li>
 * </ul>
 * Prints one RESULT line per operation: p50, p99 and max in ms over its samples, with the fill's time and the
 * timers table's size. No firing loop runs: the measurement makes timers due and fires them itself.
 */
public final class ScaleMeasurement {

    private static final int SPREAD_CLOCKS = 10_000;
    private static final int ADDS = 2_000;
    private static final int ROUNDS = 200;
    private static final String CLOCK = "m";
    private static final int LOOK_WINDOW = 10_000;
    /** The look with its window as three bound parameters, as the loop ran it before (look-bound). */
    private static final String BOUND_LOOK = FiringLookSql.LOOK.replace("%1$d", "?");

    private ScaleMeasurement() {
    }

    public static void main(String[] args) throws SQLException {
        String layout = args.length > 0 ? args[0] : "one";
        long n = args.length > 1 ? Long.parseLong(args[1]) : 10_000;
        try (TestDatabase database = TestDatabase.create(ScaleMeasurement.class, 4)) {
            long filling = System.nanoTime();
            fill(database, layout, n);
            String context = "layout=" + layout + " pending=" + n
                    + " fill_s=" + String.format("%.1f", (System.nanoTime() - filling) / 1e9)
                    + " timers_mb=" + database.queryLong("SELECT pg_total_relation_size('timers') / 1048576");
            PostgresStore store = PostgresStore.open(database.dataSource(), (int) Math.min(Integer.MAX_VALUE,
                    2 * n + 1_000_000), Long.MAX_VALUE / 4, SPREAD_CLOCKS + 10, ClockSettings.Mode.VIRTUAL);
            try {
                report("add", context, adds(store));
                long[][] rounds = fireClaimAck(store);
                report("fire", context, rounds[0]);
                report("claim", context, rounds[1]);
                report("ack", context, rounds[2]);
                report("look", context, looks(database, FiringLookSql.look(LOOK_WINDOW), 0));
                report("look-bound", context, looks(database, BOUND_LOOK, 3));
                // the rounds above leave dead entries at the fronts of the look's indexes, which autovacuum removes
                // at 10,000 pending (20% of the table) and not at 10,000,000: the look again once they are gone
                database.execute("VACUUM timers, deliveries");
                report("look-vacuumed", context, looks(database, FiringLookSql.look(LOOK_WINDOW), 0));
                report("look-bound-vacuumed", context, looks(database, BOUND_LOOK, 3));
            } finally {
                store.close();
            }
        }
    }

    /** The pending timers, in one statement, counted in the budget (stripe 0; the store spreads it when it opens). */
    private static void fill(TestDatabase database, String layout, long n) {
        int clocks = layout.equals("spread") ? SPREAD_CLOCKS : 1;
        database.execute("""
                INSERT INTO clocks (name, mode, now_ms, initial_now, delivery)
                SELECT CASE WHEN k = 0 THEN 'm' ELSE 's' || k END, 'system', 0, 0, 'queue'
                  FROM generate_series(0, %d) AS k""".formatted(clocks - 1));
        database.execute("""
                INSERT INTO timers (clock, id, fire_time, priority, created_at, payload, bytes, system_clock)
                SELECT CASE WHEN n %% %1$d = 0 THEN 'm' ELSE 's' || n %% %1$d END, 't' || n,
                       db_now_ms() + 1000000000 + n, 0, 0, NULL, length('t' || n), true
                  FROM generate_series(1, %2$d) AS n""".formatted(clocks, n));
        database.execute("""
                UPDATE pending_budget SET timers = (SELECT count(*) FROM timers),
                       bytes = (SELECT sum(bytes) FROM timers) WHERE stripe = 0""");
        database.execute("VACUUM (ANALYZE) clocks, timers, deliveries, pending_budget");
        database.execute("CHECKPOINT");
    }

    private static long[] adds(PostgresStore store) {
        long[] adds = new long[ADDS];
        for (int i = 0; i < ADDS; i++) {
            long start = System.nanoTime();
            store.timerChanges().add(CLOCK, "a" + i, 3_600_000, 0, null);
            adds[i] = System.nanoTime() - start;
        }
        for (int i = 0; i < ADDS; i++) {
            store.timerChanges().cancel(CLOCK, "a" + i, Precondition.NONE);
        }
        return adds;
    }

    /** Per round: the firing round's, the claim's and the batch ack's time. */
    private static long[][] fireClaimAck(PostgresStore store) {
        long[][] times = new long[3][ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            List<BatchOp> due = new ArrayList<>(100);
            for (int i = 0; i < 100; i++) {
                due.add(new BatchOp.Add("f" + round + "-" + i, 0, 0, null));
            }
            store.timerChanges().batch(CLOCK, due);
            long start = System.nanoTime();
            int fired = store.clockFiring().fireDue(CLOCK, 10_000);
            times[0][round] = System.nanoTime() - start;
            start = System.nanoTime();
            List<ClaimedDelivery> claimed = store.deliveries().claim(CLOCK, 100, 30_000);
            times[1][round] = System.nanoTime() - start;
            List<Ack> acks = claimed.stream().map(d -> new Ack(d.id(), d.claim().toString())).toList();
            start = System.nanoTime();
            store.deliveries().ackAll(CLOCK, acks);
            times[2][round] = System.nanoTime() - start;
            if (fired != 100 || claimed.size() != 100) {
                throw new IllegalStateException("round " + round + ": fired " + fired + ", claimed " + claimed.size());
            }
        }
        return times;
    }

    /** {@link #ROUNDS} executions of {@code sql} on one connection, its {@code windows} parameters bound. */
    private static long[] looks(TestDatabase database, String sql, int windows) throws SQLException {
        long[] looks = new long[ROUNDS];
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement look = connection.prepareStatement(sql)) {
            for (int kind = 1; kind <= windows; kind++) {
                look.setInt(kind, LOOK_WINDOW);
            }
            for (int round = 0; round < ROUNDS; round++) {
                long start = System.nanoTime();
                try (ResultSet rows = look.executeQuery()) {
                    while (rows.next()) {
                        rows.getLong(1);
                    }
                }
                looks[round] = System.nanoTime() - start;
            }
        }
        return looks;
    }

    private static void report(String operation, String context, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("RESULT op=%s %s samples=%d p50_ms=%.3f p99_ms=%.3f max_ms=%.3f%n", operation, context,
                sorted.length, sorted[sorted.length / 2] / 1e6,
                sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6, sorted[sorted.length - 1] / 1e6);
    }
}
