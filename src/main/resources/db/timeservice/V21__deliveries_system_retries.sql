-- The firing loop's look (V18): every system clock's waiting retries in one order of retry time. CONCURRENTLY and
-- alone, as V4.
CREATE INDEX CONCURRENTLY deliveries_system_retries ON deliveries (retry_at) WHERE state = 'waiting' AND system_clock;
