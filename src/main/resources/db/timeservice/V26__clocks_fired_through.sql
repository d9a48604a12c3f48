-- The time up to which a virtual clock has fired every due timer, when it lags the clock's now (NULL: it is now_ms),
-- as the memory store keeps it (SchedulerClock#firedThrough): an advance of a queueing clock whose deliveries hold
-- their limit moves now_ms without firing, and a loaded document may hold timers due before its now; they stay
-- pending and fire on the next advance. The no-overdue invariant (/queue/invariants) checks against it, so both
-- stores report the same for the same clock (issue 49 item 4).
ALTER TABLE clocks ADD COLUMN fired_through bigint;
