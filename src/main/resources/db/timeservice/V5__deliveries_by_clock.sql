-- All of a clock's deliveries, acknowledged ones too, for its deletion (and the foreign key's cascade) and the demo's
-- reset (issue 34, item 5), which otherwise read the whole deliveries table. CONCURRENTLY and alone, as V4.
CREATE INDEX CONCURRENTLY deliveries_by_clock ON deliveries (clock);
