-- A clock's timers whose id starts with a text (GET /clocks/{c}/timers?idPrefix, the console's search; TimerSql
-- PAGE_PREFIX) as a range of this index: the primary key's (clock, id) compares by the database's collation, which
-- cannot bound a prefix, so the search read every timer of the clock (2.1-2.3 s at 1,000,000, bench/console-at-size.sh
-- on PostgreSQL, issue 45). text_pattern_ops compares bytewise, as the range operators ~>=~ and ~<~ do. CONCURRENTLY
-- and alone, as V4; IF NOT EXISTS as V44.
CREATE INDEX CONCURRENTLY IF NOT EXISTS timers_id_prefix ON timers (clock, id text_pattern_ops);
