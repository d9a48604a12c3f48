-- The end of time (Limits.MAX_TIME, 2^53 - 1 ms): a scaled clock's time saturates there, as the model's ScaledTime.at
-- does (a clock anchored past it, which no clock now is, stays at its anchor). PostgresScaledClockTest holds the two
-- equal.
CREATE OR REPLACE FUNCTION scaled_time_at(clock_anchor bigint, anchor_wall bigint, rate_millionths bigint, wall bigint)
    RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT least(greatest(clock_anchor, 9007199254740991)::numeric,
                 clock_anchor + div(greatest(0, wall::numeric - anchor_wall) * rate_millionths, 1000000))::bigint
    $$;

-- Lease ends and retry times the service computed before it had an end of time saturated at 2^63 - 1, where
-- {"next": true} could not find them and a saved document could not hold them: they end at the end of time now.
UPDATE deliveries SET lease_until = 9007199254740991 WHERE lease_until > 9007199254740991;
UPDATE deliveries SET retry_at = 9007199254740991 WHERE retry_at > 9007199254740991;
