-- Which clock of its name a row is (issue 41, item 10): a clock deleted and created again under the same name is
-- another incarnation, so the pusher, which reads a push clock's settings and then claims its deliveries, claims only
-- from the incarnation whose settings (target, secrets) it read, never the deliveries of a clock made since with
-- others. Unique over every clock the database ever held (a sequence is never reused); the rows there now take one
-- each (the volatile default rewrites the table: one row per clock, at most timeservice.max-clocks).
CREATE SEQUENCE clock_incarnation AS bigint;
ALTER TABLE clocks ADD COLUMN incarnation bigint NOT NULL DEFAULT nextval('clock_incarnation');
