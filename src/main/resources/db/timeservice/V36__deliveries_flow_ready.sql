-- Issue 44 (V35): a key's ready deliveries in the clock's ready order: what a flow clock's claim takes from each key it
-- picked. CONCURRENTLY and alone, as V4, so instances still serving during a rolling upgrade keep writing deliveries.
CREATE INDEX CONCURRENTLY IF NOT EXISTS deliveries_flow_ready
    ON deliveries (clock, flow_key, ready_at, fire_time, priority, seq) WHERE state = 'ready' AND flow_key IS NOT NULL;
