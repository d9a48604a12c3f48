-- Acks, nacks and extends name a delivery by its claim (issue 18; docs/POSTGRES-STORE.md, "Statements and locks").
-- Without this index each of them read every in-flight row of its clock (deliveries_leases) to find its one row, and a
-- batch ack of 100 did that 100 times. A claim is a fresh random UUID per lease, so the index finds one row; it is
-- not unique only so that the astronomically unlikely repeat of a UUID cannot fail a claim.
CREATE INDEX deliveries_claim ON deliveries (claim);
