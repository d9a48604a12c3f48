package io.timeservice.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.InstantSource;

/**
 * How far this instance's wall clock is from the database's, which decides "due" for system clocks, leases and
 * retries. Measured like NTP's offset: the database's {@code clock_timestamp()} against the midpoint of the local
 * reads before and after the round trip, so the error is at most half the round trip. Feeds the per-instance skew
 * gauge (issue 18); nothing in the store depends on it.
 */
public final class ClockSkew {

    /** One measurement: the database's clock minus this instance's, and the round trip that bounds its error. */
    public record Measurement(long skewMillis, long roundTripMillis) {
    }

    private final Jdbc jdbc;
    private final InstantSource instanceClock;

    ClockSkew(Jdbc jdbc, InstantSource instanceClock) {
        this.jdbc = jdbc;
        this.instanceClock = instanceClock;
    }

    /** Measures now; positive when the database's clock is ahead of this instance's. */
    public Measurement measure() {
        return jdbc.autocommit(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(StoreSql.DATABASE_CLOCK)) {
                long before = instanceClock.millis();
                long database;
                try (ResultSet row = statement.executeQuery()) {
                    row.next();
                    database = row.getLong(1);
                }
                long after = instanceClock.millis();
                return new Measurement(database - (before + after) / 2, after - before);
            }
        });
    }
}
