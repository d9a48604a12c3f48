package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

import io.timeservice.model.IdempotencyRules;
import io.timeservice.store.IdempotencyKey;
import io.timeservice.store.IdempotencyStore;
import io.timeservice.store.KeptAnswer;

/**
 * The PostgreSQL store's {@code Idempotency-Key}s: the rows of {@code idempotency_keys} (V30), one per key in its
 * scope. A first request inserts its row as {@code running} with a random owner; of several instances racing one
 * key the primary key lets exactly one insert (or take over an expired row), and the others read the row it wrote:
 * 409 while it runs, its answer once kept. Times are the wall clock of the instance ({@code wallMillis}); instances
 * whose clocks differ by a second keep answers a second more or less. Every statement runs on its own (autocommit);
 * a database that cannot be reached answers 503 {@code storage_unavailable}, which is not kept.
 */
public final class PostgresIdempotencyStore implements IdempotencyStore {

    private final Jdbc jdbc;
    private final LongSupplier wallMillis;
    private final long retentionMillis;
    private final long maxKeys;
    private final AtomicLong replays = new AtomicLong();

    public PostgresIdempotencyStore(DataSource dataSource, LongSupplier wallMillis, Duration retention,
                                    long maxKeys) {
        this(dataSource, PostgresStore.Timeouts.DEFAULT, wallMillis, retention, maxKeys);
    }

    /**
     * A store whose calls keep the store's timeouts: each runs in a transaction with its lock and statement timeouts,
     * on a connection whose reads wait at most the statement timeout plus a margin, so a keyed request on a database
     * that failed over or went silent answers {@code storage_unavailable} instead of hanging.
     */
    public PostgresIdempotencyStore(DataSource dataSource, PostgresStore.Timeouts timeouts, LongSupplier wallMillis,
                                    Duration retention, long maxKeys) {
        this.jdbc = new Jdbc(dataSource, timeouts);
        this.wallMillis = wallMillis;
        this.retentionMillis = retention.toMillis();
        this.maxKeys = maxKeys;
    }

    @Override
    public Begun begin(IdempotencyKey key, String fingerprint) {
        boolean purged = false;
        while (true) {
            long now = wallMillis.getAsLong();
            long owner = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
            Begun begun = jdbc.inTransaction(connection -> {
                try (PreparedStatement insert = connection.prepareStatement(IdempotencySql.BEGIN)) {
                    int i = scope(insert, 1, key);
                    insert.setString(i++, fingerprint);
                    insert.setLong(i++, owner);
                    insert.setLong(i++, now + IdempotencyRules.RUNNING_LEASE.toMillis());
                    insert.setLong(i++, now);
                    insert.setLong(i++, maxKeys);
                    insert.setLong(i, now);
                    try (ResultSet row = insert.executeQuery()) {
                        if (row.next()) {
                            return new Begun.Run(owner);
                        }
                    }
                }
                return held(connection, key, fingerprint, now);
            });
            if (begun != null) {
                return begun;
            }
            // no live row has the key, yet none was inserted: the cap (or the row expired meanwhile)
            if (purged) {
                throw IdempotencyRules.limit(maxKeys);
            }
            purge();
            purged = true;
        }
    }

    /** The live row of the key, as a replay or a refusal; null when there is none. */
    private Begun held(Connection connection, IdempotencyKey key, String fingerprint, long now) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(IdempotencySql.READ)) {
            read.setLong(scope(read, 1, key), now);
            try (ResultSet row = read.executeQuery()) {
                if (!row.next()) {
                    return null;
                }
                if (!row.getString(1).equals(fingerprint)) {
                    throw IdempotencyRules.reused();
                }
                if (row.getString(2).equals("running")) {
                    throw IdempotencyRules.inUse();
                }
                replays.incrementAndGet();
                return new Begun.Replay(new KeptAnswer(fingerprint, row.getInt(3), headers(row.getString(4)),
                        row.getBytes(5)));
            }
        }
    }

    @Override
    public void keep(IdempotencyKey key, Begun.Run run, KeptAnswer answer) {
        keep(key, run, answer, Duration.ofMillis(retentionMillis));
    }

    @Override
    public void keep(IdempotencyKey key, Begun.Run run, KeptAnswer answer, Duration retention) {
        jdbc.inTransaction(connection -> {
            try (PreparedStatement update = connection.prepareStatement(IdempotencySql.KEEP)) {
                update.setInt(1, answer.status());
                update.setString(2, headers(answer.headers()));
                update.setBytes(3, answer.body());
                update.setLong(4, wallMillis.getAsLong() + retention.toMillis());
                update.setLong(scope(update, 5, key), run.owner());
                return update.executeUpdate();
            }
        });
    }

    @Override
    public void release(IdempotencyKey key, Begun.Run run) {
        jdbc.inTransaction(connection -> {
            try (PreparedStatement delete = connection.prepareStatement(IdempotencySql.RELEASE)) {
                delete.setLong(scope(delete, 1, key), run.owner());
                return delete.executeUpdate();
            }
        });
    }

    @Override
    public int purge() {
        return jdbc.inTransaction(connection -> {
            try (PreparedStatement delete = connection.prepareStatement(IdempotencySql.PURGE)) {
                delete.setLong(1, wallMillis.getAsLong());
                return delete.executeUpdate();
            }
        });
    }

    @Override
    public Map<String, Long> heldByClock() {
        return jdbc.inTransaction(connection -> {
            try (PreparedStatement select = connection.prepareStatement(IdempotencySql.HELD)) {
                select.setLong(1, wallMillis.getAsLong());
                Map<String, Long> held = new HashMap<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        held.put(row.getString(1), row.getLong(2));
                    }
                }
                return held;
            }
        });
    }

    @Override
    public long replays() {
        return replays.get();
    }

    /** Sets clock, caller and key from {@code index}; returns the next index. */
    private static int scope(PreparedStatement statement, int index, IdempotencyKey key) throws SQLException {
        statement.setString(index, key.clock());
        statement.setString(index + 1, key.caller());
        statement.setString(index + 2, key.key());
        return index + 3;
    }

    /** "name: value" lines; header values the service writes hold no line break. */
    private static String headers(List<KeptAnswer.Header> headers) {
        StringBuilder text = new StringBuilder();
        for (KeptAnswer.Header header : headers) {
            text.append(header.name()).append(": ").append(header.value()).append('\n');
        }
        return text.toString();
    }

    private static List<KeptAnswer.Header> headers(String text) {
        List<KeptAnswer.Header> headers = new ArrayList<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(": ");
            if (colon > 0) {
                headers.add(new KeptAnswer.Header(line.substring(0, colon), line.substring(colon + 2)));
            }
        }
        return headers;
    }

}
