package io.timeservice.store.postgres;

import java.util.Arrays;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;

/**
 * The PostgreSQL store's fork, snapshot and load of a clock with {@code n} pending timers (issue 33), on the virtual
 * clock {@code m} of a schema of its own in the test database ({@link TestDatabase}), filled by one
 * {@code INSERT ... SELECT generate_series} and analysed. A fork is one transaction holding the source's row
 * {@code FOR UPDATE}, so its whole time is how long the source's lock is held (every call on the source waits); a
 * snapshot holds the row {@code FOR SHARE} (advances and forks of the source wait; adds and claims do not). Run after
 * {@code ./mvnw -B -ntp -Pjmh test-compile}, as {@code bench/postgres-scale.sh} runs {@link ScaleMeasurement}:
 * <pre>
 * java -cp "$(cat target/scale-classpath.txt):target/classes:target/test-classes" \
 *     io.timeservice.store.postgres.ForkMeasurement 1000000 5
 * </pre>
 * Prints one RESULT line per operation (fork, snapshot, load): p50, min and max in ms over {@code rounds} rounds;
 * each copy and loaded clock is deleted again, untimed, before the next round.
 */
public final class ForkMeasurement {

    private static final String CLOCK = "m";

    private ForkMeasurement() {
    }

    public static void main(String[] args) {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        try (TestDatabase database = TestDatabase.create(ForkMeasurement.class, 4)) {
            long filling = System.nanoTime();
            database.execute("""
                    INSERT INTO clocks (name, mode, now_ms, initial_now, delivery)
                    VALUES ('m', 'virtual', 0, 0, 'queue')""");
            database.execute("""
                    INSERT INTO timers (clock, id, fire_time, priority, created_at, payload, bytes)
                    SELECT 'm', 't' || n, 1000 + n, (n %% 3)::int, 0, '{"n":' || n || '}',
                           length('t' || n) + length('{"n":' || n || '}')
                      FROM generate_series(1, %d) AS n""".formatted(n));
            database.execute("""
                    UPDATE pending_budget SET timers = (SELECT count(*) FROM timers),
                           bytes = (SELECT sum(bytes) FROM timers) WHERE stripe = 0""");
            database.analyze();
            String context = "pending=" + n + " fill_s=" + String.format("%.1f", (System.nanoTime() - filling) / 1e9)
                    + " timers_mb=" + database.queryLong("SELECT pg_total_relation_size('timers') / 1048576");
            PostgresStore store = PostgresStore.open(database.dataSource(), (int) Math.min(Integer.MAX_VALUE,
                    3 * n + 1_000), Long.MAX_VALUE / 4, 100, ClockSettings.Mode.VIRTUAL);
            try {
                long[] forks = new long[rounds];
                long[] snapshots = new long[rounds];
                long[] loads = new long[rounds];
                for (int round = 0; round < rounds; round++) {
                    long start = System.nanoTime();
                    store.clockCopy().copy("fork", CLOCK);
                    forks[round] = System.nanoTime() - start;
                    long copied = database.queryLong("SELECT count(*) FROM timers WHERE clock = 'fork'");
                    store.clocks().delete("fork");

                    start = System.nanoTime();
                    ClockSnapshot saved = store.clockSnapshots().snapshot(CLOCK);
                    snapshots[round] = System.nanoTime() - start;

                    start = System.nanoTime();
                    store.clockSnapshots().load("loaded", saved);
                    loads[round] = System.nanoTime() - start;
                    long loaded = database.queryLong("SELECT count(*) FROM timers WHERE clock = 'loaded'");
                    store.clocks().delete("loaded");
                    if (copied != n || saved.timers().size() != n || loaded != n) {
                        throw new IllegalStateException("round " + round + ": copied " + copied + ", saved "
                                + saved.timers().size() + ", loaded " + loaded + " of " + n);
                    }
                }
                report("fork", context, forks);
                report("snapshot", context, snapshots);
                report("load", context, loads);
            } finally {
                store.close();
            }
        }
    }

    private static void report(String operation, String context, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("RESULT op=%s %s rounds=%d p50_ms=%.1f min_ms=%.1f max_ms=%.1f%n", operation, context,
                sorted.length, sorted[sorted.length / 2] / 1e6, sorted[0] / 1e6, sorted[sorted.length - 1] / 1e6);
    }
}
