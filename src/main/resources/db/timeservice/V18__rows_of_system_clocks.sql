-- The firing loop's look in O(due) (issue 29; docs/POSTGRES-STORE.md, "The firing loop"): system_clock marks the rows
-- of system clocks, whose times are the database's clock, so that one global index per kind of time (V19–V21) holds
-- only the times that come due by themselves in that frame. A virtual clock's times are its own (they never come due
-- by themselves) and a scaled clock's are scaled: in one index with the system clocks' they would hide the front.
-- A clock's mode never changes, so the flag is set once, on insert, by every statement that inserts a row.
--
-- The columns come with a default only for the rows already there (no rewrite of the table), then lose it; the
-- system clocks' rows are set here. This UPDATE writes every row of a system clock while the migration holds its
-- tables: on a large database, upgrade in a quiet moment.
ALTER TABLE timers ADD COLUMN system_clock boolean NOT NULL DEFAULT false;
ALTER TABLE deliveries ADD COLUMN system_clock boolean NOT NULL DEFAULT false;
UPDATE timers SET system_clock = true WHERE clock IN (SELECT name FROM clocks WHERE mode = 'system');
UPDATE deliveries SET system_clock = true WHERE clock IN (SELECT name FROM clocks WHERE mode = 'system');
ALTER TABLE timers ALTER COLUMN system_clock DROP DEFAULT;
ALTER TABLE deliveries ALTER COLUMN system_clock DROP DEFAULT;

-- Rolling upgrade: an instance older than V18 inserts rows without the column. Rather than fail its adds (NOT NULL),
-- this trigger sets the flag from the clock's row for such an insert only; this version's statements all name the
-- column (StatementPlansTest holds them to it), so the trigger never runs for them and costs them nothing. A later
-- migration may drop it once no older instance can run.
CREATE FUNCTION set_system_clock() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
        SELECT mode = 'system' INTO NEW.system_clock FROM clocks WHERE name = NEW.clock;
        RETURN NEW;
    END
    $$;
CREATE TRIGGER timers_system_clock BEFORE INSERT ON timers
    FOR EACH ROW WHEN (NEW.system_clock IS NULL) EXECUTE FUNCTION set_system_clock();
CREATE TRIGGER deliveries_system_clock BEFORE INSERT ON deliveries
    FOR EACH ROW WHEN (NEW.system_clock IS NULL) EXECUTE FUNCTION set_system_clock();
