-- Deliveries as the memory store keeps them (issue 18; docs/POSTGRES-STORE.md, "Retries and virtual time").

-- Why a delivery died, as the memory store words it: "nacked on attempt 2 of 3", "lease expired on attempt 3 of 3".
ALTER TABLE deliveries ADD COLUMN dead_reason text;

-- Claims take the longest-ready delivery first: a first attempt is ready at its fire_time (so first attempts keep the
-- strict firing order), a retry at its retry time, a redriven one at the redrive. ready_at is in the clock's time
-- (a virtual clock's now_ms, db_now_ms() for a system clock), as every time of a delivery now is.
DROP INDEX deliveries_ready;
CREATE INDEX deliveries_ready ON deliveries (clock, ready_at, fire_time, priority, seq) WHERE state = 'ready';
