package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The skew between an instance's wall clock and the database's, measured against a real PostgreSQL. */
class ClockSkewTest {

    private static TestDatabase database;

    @BeforeAll
    static void openDatabase() {
        database = TestDatabase.create(ClockSkewTest.class, 2);
    }

    @AfterAll
    static void dropSchema() {
        database.close();
    }

    /**
     * The database runs on this machine, so its clock is the system clock: an instance clock 5 s behind measures
     * +5 s, one 5 s ahead -5 s, each within half the round trip (plus a millisecond of rounding).
     */
    @Test
    void anInstanceClockBehindOrAheadOfTheDatabases_measuresThatSkew_withinHalfTheRoundTrip() {
        Jdbc jdbc = new Jdbc(database.dataSource());
        InstantSource system = InstantSource.system();

        ClockSkew.Measurement behind = new ClockSkew(jdbc, InstantSource.offset(system, Duration.ofSeconds(-5)))
                .measure();
        ClockSkew.Measurement ahead = new ClockSkew(jdbc, InstantSource.offset(system, Duration.ofSeconds(5)))
                .measure();

        assertThat(behind.skewMillis()).isBetween(5_000 - behind.roundTripMillis() / 2 - 1,
                5_000 + behind.roundTripMillis() / 2 + 1);
        assertThat(ahead.skewMillis()).isBetween(-5_000 - ahead.roundTripMillis() / 2 - 1,
                -5_000 + ahead.roundTripMillis() / 2 + 1);
        assertThat(behind.roundTripMillis()).isNotNegative();
    }
}
