-- The firing loop's look (V18): every system clock's leases in one order of lease end. CONCURRENTLY and alone, as V4.
CREATE INDEX CONCURRENTLY deliveries_system_leases ON deliveries (lease_until)
    WHERE state = 'in_flight' AND system_clock;
