package io.timeservice.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowRate;

/**
 * A claim on a clock with flow control (issue 44), in the claim's transaction, with the memory store's semantics
 * ({@code FlowReady}): round robin over the ring of keys that may hand out a delivery, from its first key, each key
 * giving its ready deliveries in the clock's ready order while it has room in flight and tokens, all within the
 * clock's room and tokens; a key that gave goes to the back of the ring. A held-back delivery stays where it is:
 * nothing is lost or reordered within a key.
 *
 * <p>Exact across instances: the ring's keys are read from their rows locked ({@code FOR UPDATE SKIP LOCKED}, so
 * concurrent claimers take disjoint keys), their counts are the rows' latest (the triggers of V35 keep them in the
 * transaction that moves a delivery, which waits for this one's lock), and a clock-wide limit makes the claims of the
 * clock hold its row ({@link FlowSql#LOCK_CLOCK}) one after the other. A key at its concurrency or with nothing ready
 * is not in the ring's index: the claim reads neither it nor its backlog. A key out of tokens stays in the ring (in
 * its place, where the memory store moves it to the back when its next token comes) and is passed over.
 *
 * <p>Statements: {@link FlowSql}. Cost per claim of m: the clock's row and in-flight keys when it has a clock-wide
 * limit; a page of the ring (more only past keys out of tokens); one index range per key taken from; one update of
 * the keys served.
 */
final class FlowClaim {

    private FlowClaim() {
    }

    /** One key of the ring as its locked row stands. */
    private record RingKey(String key, long ready, long inFlight, long maxInFlight, FlowBucket bucket, long turn) {
    }

    /**
     * Claims up to {@code max} deliveries of the flow clock {@code clock}, leased until {@code leaseUntil}, only while
     * the clock's row is {@code incarnation} (null: any); answers them in the order the round robin took them, and
     * sets {@code tokensDenied[0]} to the tokens it found missing, as the memory store counts them: each key that
     * spent its last token with more ready and room in flight (it then waits for its next), and the claim itself when
     * the clock's bucket cut it short while a key could give.
     */
    static List<ClaimedDelivery> claim(Connection connection, StoredClock clock, Long incarnation, int max,
                                       long leaseUntil, int[] tokensDenied) throws SQLException {
        tokensDenied[0] = 0;
        FlowLimits limits = clock.flow();
        long now = clock.now();
        long room = max;
        FlowBucket clockBucket = null;
        if (limits.clockConcurrency() != null || limits.clockRate() != null) {
            clockBucket = Jdbc.queryOne(connection, FlowSql.LOCK_CLOCK, lock -> lock.setString(1, clock.name()),
                    row -> FlowBucket.of(row.getObject(1, Long.class), row.getObject(2, Long.class)));
            if (limits.clockConcurrency() != null) {
                long inFlight = Jdbc.queryOne(connection, FlowSql.CLOCK_IN_FLIGHT,
                        sum -> sum.setString(1, clock.name()), row -> row.getLong(1));
                room = Math.min(room, limits.clockConcurrency() - inFlight);
            }
        }
        boolean clockCut = false;
        if (limits.clockRate() != null && room > 0) {
            long tokens = clockBucket.tokensAt(limits.clockRate(), limits.clockRate().limit(), now);
            clockCut = tokens < room;
            room = Math.min(room, tokens);
        }
        List<RingKey> keys = new ArrayList<>();
        List<Long> available = new ArrayList<>();
        if (room <= 0) {
            if (clockCut) { // out of the clock's tokens: denied when a key could have given
                ring(connection, clock, limits, now, 1, keys, available);
                tokensDenied[0] = keys.isEmpty() ? 0 : 1;
            }
            return List.of();
        }
        ring(connection, clock, limits, now, (int) room, keys, available);
        if (keys.isEmpty()) {
            return List.of();
        }
        tokensDenied[0] = clockCut ? 1 : 0;
        // the round robin: turn after turn over the keys in ring order, each giving one while it can
        int[] taken = new int[keys.size()];
        int[] lastTurn = new int[keys.size()];
        List<Integer> order = new ArrayList<>();
        boolean gave = true;
        while (order.size() < room && gave) {
            gave = false;
            for (int i = 0; i < keys.size() && order.size() < room; i++) {
                if (taken[i] < available.get(i)) {
                    taken[i]++;
                    lastTurn[i] = order.size();
                    order.add(i);
                    gave = true;
                }
            }
        }
        Map<String, List<ClaimedDelivery>> byKey = take(connection, clock, incarnation, leaseUntil, keys, taken);
        tokensDenied[0] += served(connection, clock, limits, now, keys, taken, lastTurn, clockBucket, order.size());
        List<ClaimedDelivery> claimed = new ArrayList<>(order.size());
        Map<String, Integer> next = new HashMap<>();
        for (int i : order) {
            String key = keys.get(i).key();
            List<ClaimedDelivery> ofKey = byKey.getOrDefault(key, List.of());
            int at = next.merge(key, 1, Integer::sum) - 1;
            if (at < ofKey.size()) {
                claimed.add(ofKey.get(at));
            }
        }
        return claimed;
    }

    /**
     * Reads the ring from its first key, page after page, until {@code room} keys that can give one are found or
     * the ring ends; fills {@code keys} with those and {@code available} with how many each may give.
     */
    private static void ring(Connection connection, StoredClock clock, FlowLimits limits, long now, int room,
                             List<RingKey> keys, List<Long> available) throws SQLException {
        long after = Long.MIN_VALUE;
        while (keys.size() < room) {
            List<RingKey> page = new ArrayList<>();
            long from = after;
            try (PreparedStatement select = connection.prepareStatement(FlowSql.RING)) {
                select.setString(1, clock.name());
                select.setLong(2, from);
                select.setInt(3, room);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        page.add(new RingKey(row.getString(1), row.getLong(2), row.getLong(3), row.getLong(4),
                                FlowBucket.of(row.getObject(5, Long.class), row.getObject(6, Long.class)),
                                row.getLong(7)));
                    }
                }
            }
            for (RingKey key : page) {
                long can = Math.min(key.ready(), key.maxInFlight() - key.inFlight());
                FlowRate rate = limits.rateOf(key.key());
                if (rate != null) {
                    can = Math.min(can, key.bucket().tokensAt(rate, limits.burstOf(key.key()), now));
                }
                if (can > 0 && keys.size() < room) {
                    keys.add(key);
                    available.add(can);
                }
                after = key.turn();
            }
            if (page.size() < room) {
                return;
            }
        }
    }

    /** Leases what the round robin took from each key; answers each key's deliveries in the ready order. */
    private static Map<String, List<ClaimedDelivery>> take(Connection connection, StoredClock clock, Long incarnation,
                                                           long leaseUntil, List<RingKey> keys, int[] taken)
            throws SQLException {
        String[] names = new String[keys.size()];
        Integer[] counts = new Integer[keys.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = keys.get(i).key();
            counts[i] = taken[i];
        }
        Map<String, List<ClaimedDelivery>> byKey = new LinkedHashMap<>();
        try (PreparedStatement take = connection.prepareStatement(FlowSql.TAKE)) {
            take.setLong(1, leaseUntil);
            take.setArray(2, connection.createArrayOf("text", names));
            take.setArray(3, connection.createArrayOf("integer", counts));
            take.setString(4, clock.name());
            take.setObject(5, incarnation, Types.BIGINT);
            take.setObject(6, incarnation, Types.BIGINT);
            try (ResultSet rows = take.executeQuery()) {
                while (rows.next()) {
                    byKey.computeIfAbsent(rows.getString(13), k -> new ArrayList<>()).add(new ClaimedDelivery(
                            rows.getString(1), rows.getLong(2), rows.getInt(3), rows.getLong(4), rows.getString(5),
                            rows.getInt(6), rows.getObject(7, UUID.class), rows.getLong(8), rows.getLong(9),
                            rows.getString(10), rows.getString(11), rows.getString(12)));
                }
            }
        }
        for (List<ClaimedDelivery> ofKey : byKey.values()) {
            ofKey.sort(PostgresDeliveries.READY_ORDER); // RETURNING follows no order
        }
        return byKey;
    }

    /**
     * Moves each key that gave to the back of the ring and spends the tokens taken, the clock's too; answers how many
     * of those keys it left without a token while they have more ready and room in flight.
     */
    private static int served(Connection connection, StoredClock clock, FlowLimits limits, long now,
                               List<RingKey> keys, int[] taken, int[] lastTurn, FlowBucket clockBucket, int total)
            throws SQLException {
        List<String> names = new ArrayList<>();
        List<Integer> turns = new ArrayList<>();
        List<Long> units = new ArrayList<>();
        List<Long> refilled = new ArrayList<>();
        int denied = 0;
        for (int i = 0; i < keys.size(); i++) {
            if (taken[i] == 0) {
                continue;
            }
            RingKey key = keys.get(i);
            FlowRate rate = limits.rateOf(key.key());
            FlowBucket bucket = rate == null ? key.bucket()
                    : key.bucket().take(rate, limits.burstOf(key.key()), now, taken[i]);
            if (rate != null && key.ready() > taken[i] && key.inFlight() + taken[i] < key.maxInFlight()
                    && bucket.tokensAt(rate, limits.burstOf(key.key()), now) == 0) {
                denied++;
            }
            names.add(key.key());
            turns.add(lastTurn[i]);
            units.add(bucket.refilledAt() == null ? null : bucket.units());
            refilled.add(bucket.refilledAt());
        }
        if (clockBucket != null) {
            FlowRate rate = limits.clockRate();
            FlowBucket after = rate == null ? clockBucket : clockBucket.take(rate, rate.limit(), now, total);
            names.add(FlowSql.CLOCK_KEY);
            turns.add(null);
            units.add(after.refilledAt() == null ? null : after.units());
            refilled.add(after.refilledAt());
        }
        if (names.isEmpty()) {
            return denied;
        }
        try (PreparedStatement update = connection.prepareStatement(FlowSql.SERVED)) {
            update.setArray(1, connection.createArrayOf("text", names.toArray()));
            update.setArray(2, connection.createArrayOf("integer", turns.toArray()));
            update.setArray(3, connection.createArrayOf("bigint", units.toArray()));
            update.setArray(4, connection.createArrayOf("bigint", refilled.toArray()));
            update.setString(5, clock.name());
            update.executeUpdate();
        }
        return denied;
    }
}
