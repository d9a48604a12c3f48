-- A clock's delivery counts read only its unacknowledged rows (issue 34, item 5; docs/POSTGRES-STORE.md, "Statements
-- and locks"): GET /clocks/{c} and GET /clocks (once per clock) count them, and without this index read the whole
-- deliveries table, the acknowledged rows that every clock keeps for repeated acks included. Built CONCURRENTLY, alone
-- in its migration (Flyway runs it outside a transaction), so a rolling upgrade does not block writes meanwhile.
CREATE INDEX CONCURRENTLY deliveries_pending_by_clock ON deliveries (clock, state) WHERE state <> 'acked';
