-- Issue 44 (V35): the keys with deliveries in flight: a clock's own concurrency sums them. CONCURRENTLY and alone.
CREATE INDEX CONCURRENTLY IF NOT EXISTS flow_keys_in_flight ON flow_keys (clock) INCLUDE (in_flight) WHERE in_flight > 0;
