package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.jdbc.PreferQueryMode;

/**
 * What the store needs of a pool that a pooler in transaction mode (pgbouncer) stands behind, and checks at start-up.
 * Such a pooler hands each transaction whichever server connection is free, so nothing may outlive a transaction on
 * the server: the store takes its advisory locks per transaction ({@code pg_advisory_xact_lock}), sets its timeouts
 * with {@code SET LOCAL} ({@code set_config(..., true)}), and listens ({@code LISTEN}, session state) and migrates
 * (Flyway's session lock) over a direct connection of their own. What remains is pgjdbc's: after
 * {@code prepareThreshold} (5) runs of one statement it prepares it on the server under a name, which the next
 * transaction's server connection does not know ("prepared statement S_1 does not exist"; pgbouncer 1.18 cannot
 * carry prepared statements). {@code prepareThreshold=0} keeps every statement unnamed, or
 * {@code preferQueryMode=simple} sends them as text.
 */
public final class TransactionPooling {

    private TransactionPooling() {
    }

    /**
     * Stops start-up unless the connections of {@code pooled} prepare nothing on the server, saying which URL to
     * mend and how.
     *
     * @param urlProperty the property that names the pooled URL, for the message
     */
    public static void requireNoServerPreparedStatements(DataSource pooled, String urlProperty) {
        try (Connection connection = pooled.getConnection()) {
            PGConnection pg = connection.unwrap(PGConnection.class);
            if (pg.getPreferQueryMode() != PreferQueryMode.SIMPLE && pg.getPrepareThreshold() != 0) {
                throw new IllegalStateException(urlProperty + " goes through a pooler in transaction mode"
                        + " (timeservice.postgresql.direct-url is set), where statements prepared on the server are"
                        + " lost between transactions, but pgjdbc prepares them (prepareThreshold="
                        + pg.getPrepareThreshold() + "): add prepareThreshold=0 to " + urlProperty);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot check the connections of " + urlProperty + ": " + e.getMessage(),
                    e);
        }
    }
}
