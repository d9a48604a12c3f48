-- A clock's pending count in O(1) (issue 45, "At size"; docs/POSTGRES-STORE.md, "Pending counts"): GET /clocks counts
-- each listed clock's pending timers, as do GET /clocks/{c} and the timers listings; count(*) read all 1,000,000 rows
-- of a big clock, 0.7-1.6 s a call (bench/console-at-size.sh on PostgreSQL). The count is kept here instead, by the
-- triggers below, in the transaction of every statement that inserts or deletes timers (adds, batches, cancels,
-- firings, schedules, copies, loads, resets, deletions, and those of older instances during a rolling upgrade): the
-- sum of a clock's rows is always the number of its rows in timers, as any one snapshot sees both.
--
-- A clock has one row per stripe: a statement adds its change to a row of the clock that no other transaction holds
-- (FOR UPDATE SKIP LOCKED), or to a new row when all are held, so it never waits for another transaction and takes
-- part in no deadlock; concurrent adds to one clock do not queue behind one counter. A clock has about as many rows
-- as the most transactions that changed its timers at once (one when changes come one at a time); a stripe alone may
-- be negative. No foreign key: the cascade of a clock's deletion fires these triggers after the clock row is gone;
-- the store deletes a clock's rows with the clock (ClockSql.DELETE_COUNTS).
CREATE TABLE timer_counts (
    clock   text    NOT NULL,
    stripe  integer NOT NULL,
    pending bigint  NOT NULL,
    PRIMARY KEY (clock, stripe)
);

-- Statement-level: one change per clock per statement, from its transition table (a firing of 10,000 timers or a
-- deletion of a clock's 1,000,000 is one update, not one per row).
CREATE FUNCTION count_timers() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    DECLARE
        changed record;
        free integer;
    BEGIN
        FOR changed IN SELECT clock, CASE TG_OP WHEN 'INSERT' THEN count(*) ELSE -count(*) END AS delta
                         FROM timer_changes GROUP BY clock ORDER BY clock
        LOOP
            SELECT stripe INTO free FROM timer_counts WHERE clock = changed.clock
             ORDER BY stripe LIMIT 1 FOR UPDATE SKIP LOCKED;
            IF FOUND THEN
                UPDATE timer_counts SET pending = pending + changed.delta
                 WHERE clock = changed.clock AND stripe = free;
            ELSE
                LOOP -- a stripe no other row of the clock has: a random one, again in the rare case it is taken
                    INSERT INTO timer_counts (clock, stripe, pending)
                    VALUES (changed.clock, floor(random() * 2147483647)::integer, changed.delta)
                    ON CONFLICT (clock, stripe) DO NOTHING;
                    EXIT WHEN FOUND;
                END LOOP;
            END IF;
        END LOOP;
        RETURN NULL;
    END
    $$;

-- Creating the triggers locks timers against writes (SHARE ROW EXCLUSIVE) until this migration commits, so the count
-- below is exact: no change lands between it and the triggers. It reads every timer once, with writes waiting: on a
-- large database, upgrade in a quiet moment (about a second per million timers).
CREATE TRIGGER timers_count_inserts AFTER INSERT ON timers
    REFERENCING NEW TABLE AS timer_changes FOR EACH STATEMENT EXECUTE FUNCTION count_timers();
CREATE TRIGGER timers_count_deletes AFTER DELETE ON timers
    REFERENCING OLD TABLE AS timer_changes FOR EACH STATEMENT EXECUTE FUNCTION count_timers();
INSERT INTO timer_counts (clock, stripe, pending) SELECT clock, 0, count(*) FROM timers GROUP BY clock;
