package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Random;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.ScaledTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scaled clocks on the PostgreSQL store: the SQL that computes their time is the model's {@link ScaledTime} to the
 * millisecond, their now is that function of the database's clock from the stored anchor, a rate change is
 * continuous, and the firing loop fires them at the database time their time gets to a deadline. The database's
 * clock cannot be moved by hand, so a test moves the stored anchor instead (the same function of a later wall time).
 */
class PostgresScaledClockTest {

    private static final Duration NEVER_IN_THIS_TEST = Duration.ofMinutes(10);

    private TestDatabase database;
    private PostgresStore store;

    @BeforeEach
    void open() {
        database = TestDatabase.create(PostgresScaledClockTest.class, 6);
        store = PostgresStore.open(database.dataSource(), 100_000, 100_000_000, 10, ClockSettings.Mode.VIRTUAL);
    }

    @AfterEach
    void close() {
        store.close();
        database.close();
    }

    @Test
    void theSqlTimeFunction_isTheModelsScaledTime_toTheMillisecond() throws SQLException {
        long seed = Long.getLong("seed", 1_796_411_205L); // fixed, so every run checks the same cases; -Dseed=N for others
        Random random = new Random(seed);
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement at = connection.prepareStatement("SELECT scaled_time_at(?, ?, ?, ?)")) {
            for (int i = 0; i < 2_000; i++) {
                long wallAnchor = 1_700_000_000_000L + random.nextInt(1_000_000);
                long clockAnchor = switch (i % 4) {
                    case 0 -> Long.MAX_VALUE - random.nextInt(1_000_000);
                    case 1 -> 0;
                    case 2 -> i % 8 == 2 ? Limits.MAX_TIME - random.nextInt(1_000_000)
                            : random.nextLong(Limits.MAX_DELAY);
                    default -> random.nextLong(Limits.MAX_DELAY);
                };
                long millionths = i % 5 == 0 ? 0 : random.nextLong(ClockRate.MAX * 1_000_000 + 1);
                long wall = wallAnchor + random.nextLong(-1_000, 1L << (10 + random.nextInt(30)));
                ScaledTime time = new ScaledTime(wallAnchor, clockAnchor, new ClockRate(millionths));
                at.setLong(1, clockAnchor);
                at.setLong(2, wallAnchor);
                at.setLong(3, millionths);
                at.setLong(4, wall);
                try (ResultSet row = at.executeQuery()) {
                    row.next();
                    assertThat(row.getLong(1)).as("seed %d: %s at %d", seed, time, wall).isEqualTo(time.at(wall));
                }
            }
        }
    }

    @Test
    void aScaledClocksNow_isItsFunctionOfTheDatabasesClock_fromTheStoredAnchor() {
        StoredClock created = create("soak", 1_000, "0");
        assertThat(created.now()).isEqualTo(1_000);
        assertThat(created.settings()).isEqualTo(settings("0"));
        assertThat(store.clocks().get("soak").now()).as("frozen").isEqualTo(1_000);

        store.clocks().rerate("soak", rate("60"));
        database.execute("UPDATE clocks SET anchor_wall = anchor_wall - 3600000 WHERE name = 'soak'"); // an hour ago
        long before = database.queryLong("SELECT db_now_ms()");
        StoredClock read = store.clocks().get("soak");
        long after = database.queryLong("SELECT db_now_ms()");
        assertThat(read.now()).isBetween(read.scaledTime().at(before), read.scaledTime().at(after))
                .isGreaterThanOrEqualTo(1_000 + 60 * 3_600_000L);
    }

    @Test
    void aRateChange_isContinuous_andOnlyForScaledClocks() {
        create("soak", 500, "0");
        StoredClock running = store.clocks().rerate("soak", rate("2.5"));
        assertThat(running.settings().rate()).isEqualTo(rate("2.5"));
        assertThat(running.scaledTime().clockAnchor()).isEqualTo(500);
        StoredClock frozen = store.clocks().rerate("soak", rate("0"));
        assertThat(frozen.now()).isGreaterThanOrEqualTo(500).isEqualTo(frozen.scaledTime().clockAnchor());
        assertThat(store.clocks().get("soak").now()).isEqualTo(frozen.now());

        store.clocks().create("ci", ClockSettings.Mode.VIRTUAL, 0, null);
        assertThatThrownBy(() -> store.clocks().rerate("ci", rate("2"))).isInstanceOfSatisfying(
                ProblemException.class, refused -> assertThat(refused.code()).isEqualTo(ErrorCode.CLOCK_NOT_SCALED));
        assertThatThrownBy(() -> store.timers().advance("soak", 1L, null, 10)).isInstanceOfSatisfying(
                ProblemException.class, refused -> assertThat(refused.code()).isEqualTo(ErrorCode.CLOCK_NOT_VIRTUAL));
    }

    @Test
    void anotherInstance_readsTheSameFunction_andSeesTheOthersRateChange() {
        create("soak", 0, "60");
        PostgresStore other = PostgresStore.open(database.dataSource(), 100_000, 100_000_000, 10,
                ClockSettings.Mode.VIRTUAL);
        try {
            assertThat(other.clocks().get("soak").scaledTime()).isEqualTo(store.clocks().get("soak").scaledTime());
            store.clocks().rerate("soak", rate("1000"));
            StoredClock frozen = store.clocks().rerate("soak", rate("0"));
            StoredClock seen = other.clocks().get("soak");
            assertThat(seen.scaledTime()).isEqualTo(frozen.scaledTime());
            assertThat(seen.now()).isEqualTo(frozen.now());
            assertThat(seen.settings()).isEqualTo(settings("0"));
        } finally {
            other.close();
        }
    }

    @Test
    void theFiringLoop_firesAFrozenClocksTimers_onceARateChangeBringsThemDue() throws Exception {
        create("soak", 0, "0");
        store.timers().add("soak", "in-an-hour", 3_600_000, 0, null);
        store.timers().add("soak", "in-a-day", 86_400_000, 0, null);
        store.startFiring(new PostgresFiringLoop.Settings(NEVER_IN_THIS_TEST, 10_000, Duration.ofMinutes(5),
                NEVER_IN_THIS_TEST));
        LoopSleeps.awaitSleepingLongerThan(store, database, 60_000); // frozen: nothing to plan but the slow poll

        store.clocks().rerate("soak", rate("100000")); // an hour in 36 wall ms, a day in under a second

        Counts.awaitAtLeast(() -> (int) database.queryLong("SELECT count(*) FROM deliveries WHERE state = 'ready'"),
                2, "both timers ready");
        assertThat(store.deliveries().claim("soak", 10, 30_000)).extracting(ClaimedDelivery::id)
                .containsExactly("in-an-hour", "in-a-day");
    }

    private StoredClock create(String name, long now, String rate) {
        return store.clocks().create(name, now, settings(rate)).clock();
    }

    private static ClockSettings settings(String rate) {
        return ClockSettings.of(ClockSettings.Mode.SCALED, null, null, rate(rate));
    }

    private static ClockRate rate(String rate) {
        return ClockRate.of(new BigDecimal(rate));
    }
}
