-- The purge of expired Idempotency-Keys and the cap's count of live ones read idempotency_keys by expires_at (issue 43
-- item 3). Built CONCURRENTLY, alone in its migration (Flyway runs it outside a transaction), as every index after V3.
CREATE INDEX CONCURRENTLY idempotency_keys_expiry ON idempotency_keys (expires_at);
