-- The firing loop's look (V18): the pending timers of every system clock in one order of fire time, so the look reads
-- the due ones and the first after them from the front. CONCURRENTLY and alone, as V4.
CREATE INDEX CONCURRENTLY timers_system_due ON timers (fire_time) WHERE system_clock;
