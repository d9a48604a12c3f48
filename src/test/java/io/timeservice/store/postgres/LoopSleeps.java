package io.timeservice.store.postgres;

/** Waits for a PostgreSQL store's firing loop to be asleep, for tests that change something while it sleeps. */
final class LoopSleeps {

    private LoopSleeps() {
    }

    /**
     * Waits until {@code store}'s loop sleeps with a plan more than {@code millis} past the database's now: asleep, not
     * looking ({@link FiringAlarm#plannedWake} is {@link Long#MIN_VALUE} then, before the first look included).
     */
    static void awaitSleepingLongerThan(PostgresStore store, TestDatabase database, long millis)
            throws InterruptedException {
        Counts.awaitAtLeast(() -> {
            long wake = store.alarm().plannedWake();
            return wake != Long.MIN_VALUE && wake - database.queryLong("SELECT db_now_ms()") > millis ? 1 : 0;
        }, 1, "the loop asleep with a plan over " + millis + " ms ahead");
    }
}
