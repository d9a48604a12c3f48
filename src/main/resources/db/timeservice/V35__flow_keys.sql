-- Issue 44: flow control per key on the PostgreSQL store (docs/FLOW-CONTROL.md, docs/POSTGRES-STORE.md "Flow control").
-- A timer's key (null: none), kept with the timer and with its delivery. A delivery's flow_key is its key ('' for
-- none) on a clock with flow control and null on any other: the rows the key table counts. Nullable columns without a
-- default change only the catalogue: no table rewrite, no long lock.
ALTER TABLE timers ADD COLUMN key text;
ALTER TABLE deliveries ADD COLUMN key text;
ALTER TABLE deliveries ADD COLUMN flow_key text;

-- Turns of the ring: a key gets the next one (times 100,000, so that a claim can number the keys it served within
-- one) when it may hand out a delivery again and when a claim took from it.
CREATE SEQUENCE flow_turns;

-- One row per key of a flow clock: its ready and in-flight deliveries (kept by the triggers below in the transaction
-- that moves a delivery), the most it may have in flight (its override's concurrency, else the clock's per-key one), its turn in the ring and its token bucket (units of
-- 1/period token at refilled_at, the clock's time; null: never used, full). The key '/' (no key can be it) holds the
-- clock's own bucket. Deleted with the clock.
CREATE TABLE flow_keys (
    clock         text    NOT NULL REFERENCES clocks (name) ON DELETE CASCADE,
    key           text    NOT NULL,
    ready         integer NOT NULL DEFAULT 0,
    in_flight     integer NOT NULL DEFAULT 0,
    max_in_flight integer NOT NULL,
    turn          bigint  NOT NULL,
    units         bigint,
    refilled_at   bigint,
    PRIMARY KEY (clock, key)
);
-- Its indexes: V36 (deliveries_flow_ready), V37 (flow_keys_ring), V38 (flow_keys_in_flight), each CONCURRENTLY and
-- alone, as V4 (MigrationsTest).

-- Keeps a flow key's counts as its deliveries move: +1/-1 ready and in flight; a key that may hand out a delivery
-- again (something ready, room in flight) and could not before takes a new turn, at the back of the ring.
CREATE FUNCTION flow_key_counts() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    DECLARE
        k_clock text;
        k_key text;
        d_ready integer := 0;
        d_flight integer := 0;
    BEGIN
        IF TG_OP <> 'INSERT' THEN
            k_clock := OLD.clock;
            k_key := OLD.flow_key;
            d_ready := d_ready - (OLD.state = 'ready')::int;
            d_flight := d_flight - (OLD.state = 'in_flight')::int;
        END IF;
        IF TG_OP <> 'DELETE' THEN
            k_clock := NEW.clock;
            k_key := NEW.flow_key;
            d_ready := d_ready + (NEW.state = 'ready')::int;
            d_flight := d_flight + (NEW.state = 'in_flight')::int;
        END IF;
        IF d_ready = 0 AND d_flight = 0 THEN
            RETURN NULL;
        END IF;
        UPDATE flow_keys
           SET ready = ready + d_ready, in_flight = in_flight + d_flight,
               turn = CASE WHEN NOT (ready > 0 AND in_flight < max_in_flight)
                                AND ready + d_ready > 0 AND in_flight + d_flight < max_in_flight
                           THEN nextval('flow_turns') * 100000 ELSE turn END
         WHERE clock = k_clock AND key = k_key;
        IF NOT FOUND THEN
            INSERT INTO flow_keys AS k (clock, key, ready, in_flight, max_in_flight, turn)
            SELECT k_clock, k_key, d_ready, d_flight,
                   coalesce((c.settings #>> ARRAY['flow', 'keys', k_key, 'concurrency'])::int,
                            (c.settings #>> '{flow,concurrency}')::int, 2147483647),
                   nextval('flow_turns') * 100000
              FROM clocks c WHERE c.name = k_clock
            ON CONFLICT (clock, key) DO UPDATE
               SET ready = k.ready + EXCLUDED.ready, in_flight = k.in_flight + EXCLUDED.in_flight,
                   turn = CASE WHEN NOT (k.ready > 0 AND k.in_flight < k.max_in_flight)
                                    AND k.ready + EXCLUDED.ready > 0
                                    AND k.in_flight + EXCLUDED.in_flight < k.max_in_flight
                               THEN EXCLUDED.turn ELSE k.turn END;
        END IF;
        RETURN NULL;
    END
    $$;

CREATE TRIGGER deliveries_flow_insert AFTER INSERT ON deliveries
    FOR EACH ROW WHEN (NEW.flow_key IS NOT NULL AND NEW.state IN ('ready', 'in_flight'))
    EXECUTE FUNCTION flow_key_counts();
CREATE TRIGGER deliveries_flow_update AFTER UPDATE OF state ON deliveries
    FOR EACH ROW WHEN (NEW.flow_key IS NOT NULL AND OLD.state IS DISTINCT FROM NEW.state)
    EXECUTE FUNCTION flow_key_counts();
CREATE TRIGGER deliveries_flow_delete AFTER DELETE ON deliveries
    FOR EACH ROW WHEN (OLD.flow_key IS NOT NULL AND OLD.state IN ('ready', 'in_flight'))
    EXECUTE FUNCTION flow_key_counts();
