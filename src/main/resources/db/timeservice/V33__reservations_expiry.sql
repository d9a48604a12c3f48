-- The purge of a clock's ended reservations (issue 43 item 1) reads reservations by clock and expires_at; a row
-- without an end (a fired timer whose delivery is queued) is left out. Built CONCURRENTLY, alone in its migration
-- (Flyway runs it outside a transaction), as every index after V3.
CREATE INDEX CONCURRENTLY reservations_expiry ON reservations (clock, expires_at) WHERE expires_at IS NOT NULL;
