-- timeservice.deliveries.max on this store (docs/POSTGRES-STORE.md, "The delivery limit"): each stripe of the pending
-- budget also counts unacknowledged deliveries (ready, in flight, waiting, dead) and owns a share of the limit, as it
-- counts timers and bytes. Firing adds to the count in the budget change that ends its transaction, and acks, dead
-- deletions, clock deletions and resets take from it in the statements that give back timers and bytes already.
--
-- The columns come with constant defaults (no rewrite of the table: 16 rows). The deliveries there now are counted on
-- stripe 0; the allowances are left at 0 for the first instance of this version to spread (PendingBudgetStripes.adopt,
-- which also recounts the deliveries under the stripes' locks at every start, so that what an older instance fired or
-- acknowledged during a rolling upgrade, uncounted, is counted once the last older instance has stopped and an
-- instance of this version starts).
ALTER TABLE pending_budget ADD COLUMN deliveries bigint NOT NULL DEFAULT 0,
                           ADD COLUMN delivery_allowance bigint NOT NULL DEFAULT 0;
UPDATE pending_budget SET deliveries = (SELECT count(*) FROM deliveries WHERE state <> 'acked') WHERE stripe = 0;
