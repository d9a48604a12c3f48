-- Issue 44: a schedule's flow-control key (null: none) on the PostgreSQL store, as the memory store keeps it: each
-- occurrence timer takes it (ScheduleSql.INSERT_OCCURRENCE, and the occurrences a firing delivers without a row), and
-- forks and snapshots carry it. A nullable column without a default changes only the catalogue: no table rewrite.
ALTER TABLE schedules ADD COLUMN key text;
