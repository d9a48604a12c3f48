-- Issue 44 (V35): the ring: the keys with something ready and room in flight, by turn. A key at its concurrency or
-- with nothing ready is not in it, so a claim never reads such a key, let alone its backlog. CONCURRENTLY and alone.
CREATE INDEX CONCURRENTLY IF NOT EXISTS flow_keys_ring ON flow_keys (clock, turn)
    WHERE ready > 0 AND in_flight < max_in_flight;
