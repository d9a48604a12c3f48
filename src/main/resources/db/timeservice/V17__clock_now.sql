-- A scaled clock's time at the wall time (database's clock, Unix epoch ms) "wall": the model's ScaledTime.at to the
-- millisecond, clock_anchor + floor((wall - anchor_wall) * rate_millionths / 1e6), the anchor's time for a wall time
-- before the anchor, saturated at 2^63 - 1. Integer division of exact numerics (div, not "/", which rounds its
-- quotient to a limited scale) rounds down as the Java code does (PostgresScaledClockTest holds the two equal).
CREATE FUNCTION scaled_time_at(clock_anchor bigint, anchor_wall bigint, rate_millionths bigint, wall bigint)
    RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT least(9223372036854775807::numeric,
                 clock_anchor + div(greatest(0, wall::numeric - anchor_wall) * rate_millionths, 1000000))::bigint
    $$;

-- A clock's now, in the one place every statement reads it: a virtual clock's now_ms, the database's clock for a
-- system clock, a scaled clock's function of the database's clock (anchored at now_ms). Fixed for the transaction,
-- as db_now_ms() is.
CREATE FUNCTION clock_now_ms(c clocks) RETURNS bigint
    LANGUAGE sql STABLE
    AS $$
    SELECT CASE c.mode
               WHEN 'virtual' THEN c.now_ms
               WHEN 'system' THEN db_now_ms()
               ELSE scaled_time_at(c.now_ms, c.anchor_wall, c.rate_millionths, db_now_ms())
           END
    $$;
