-- The clock at a glance (TimerSql.STATUS, read for GET /clocks/{c} and for each clock of GET /clocks) finds a clock's
-- oldest pending timer by (created_at, seq): without an index PostgreSQL sorted all of the clock's timers, 1.5 s of
-- the 2.8 s that GET /clocks/big took at 1,000,000 timers (bench/console-at-size.sh on PostgreSQL, issue 45). One more
-- index for each add and firing to keep, for a look of O(log n). CONCURRENTLY and alone, as V4; IF NOT EXISTS so a
-- database given the index by hand before the upgrade migrates too.
CREATE INDEX CONCURRENTLY IF NOT EXISTS timers_oldest_pending ON timers (clock, created_at, seq);
