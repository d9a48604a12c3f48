-- The PostgreSQL store's schema (issue 18); see docs/POSTGRES-STORE.md. Every time is in milliseconds as a bigint:
-- a virtual clock's own time for fire_time and created_at, the database's clock (Unix epoch ms, db_now_ms()) for
-- leases, retries and system clocks, so instances with skewed clocks agree.

-- The one clock every instance reads: the database's, as Unix epoch milliseconds, fixed for the transaction (now()),
-- so one change sees one "now" however long it runs.
CREATE FUNCTION db_now_ms() RETURNS bigint
    LANGUAGE sql STABLE
    AS $$ SELECT floor(extract(epoch FROM now()) * 1000)::bigint $$;

-- A clock. Virtual clocks keep their now in now_ms, moved only by advance, which locks the row (FOR UPDATE) while
-- adds and edits share it (FOR SHARE): two instances never advance one clock at once, and no timer is added before
-- a now that an advance has already passed. A system clock's now is db_now_ms(); its now_ms stays 0.
CREATE TABLE clocks (
    name        text PRIMARY KEY,
    mode        text NOT NULL CHECK (mode IN ('virtual', 'system')),
    now_ms      bigint NOT NULL CHECK (now_ms >= 0),
    initial_now bigint NOT NULL CHECK (initial_now >= 0),
    -- what fired timers become: 'response' (returned by advance only) or 'queue' (deliveries as well)
    delivery    text NOT NULL CHECK (delivery IN ('response', 'queue')),
    -- retry policy and the rest of issue 16's per-clock settings, as the API states them
    settings    jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at  bigint NOT NULL DEFAULT db_now_ms()
);

-- Sequences of every clock: strictly increasing in the order adds ask for them, never reused (a sequence is
-- WAL-logged before it is handed out), and unique over all clocks, so an entity tag "sequence-version" of a deleted
-- clock's timer never matches a timer of a clock re-created under its name.
CREATE SEQUENCE timer_sequence AS bigint;

-- Pending timers. Only pending ones: a fired or cancelled timer leaves, so (clock, id) is unique among the pending.
CREATE TABLE timers (
    clock           text    NOT NULL REFERENCES clocks (name) ON DELETE CASCADE,
    id              text    NOT NULL,
    fire_time       bigint  NOT NULL,
    priority        integer NOT NULL,
    seq             bigint  NOT NULL DEFAULT nextval('timer_sequence'),
    version         integer NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at      bigint  NOT NULL,           -- the clock's now at the add
    created_at_wall bigint  NOT NULL DEFAULT db_now_ms(),
    -- compact JSON text exactly as accepted (jsonb would reorder members and rewrite numbers such as 1e2)
    payload         text,
    bytes           bigint  NOT NULL,           -- id + payload characters, counted against capacity-bytes
    PRIMARY KEY (clock, id)
);
CREATE UNIQUE INDEX timers_seq ON timers (seq);
-- firing order per clock: advance, preview and the firing of system clocks read it front first
CREATE INDEX timers_firing_order ON timers (clock, fire_time, priority, seq);

-- Fired timers handed to workers (issue 16's delivery). A timer's sequence names its delivery: an id may be pending
-- again while its earlier delivery still is.
--   ready      due and unclaimed: the claim takes these, in firing order
--   in_flight  claimed: claim (token) and lease_until say by whom and until when
--   waiting    nacked or its lease expired: ready again at retry_at, with attempt + 1
--   dead       its last attempt failed
--   acked      done; kept so that a repeated ack with the same claim still succeeds, purged later
CREATE TABLE deliveries (
    seq         bigint  PRIMARY KEY,
    clock       text    NOT NULL REFERENCES clocks (name) ON DELETE CASCADE,
    id          text    NOT NULL,
    fire_time   bigint  NOT NULL,
    priority    integer NOT NULL,
    version     integer NOT NULL,
    created_at  bigint  NOT NULL,
    payload     text,
    bytes       bigint  NOT NULL,
    state       text    NOT NULL CHECK (state IN ('ready', 'in_flight', 'waiting', 'dead', 'acked')),
    attempt     integer NOT NULL DEFAULT 1 CHECK (attempt >= 1),
    claim       uuid,
    lease_until bigint,
    retry_at    bigint,
    ready_at    bigint  NOT NULL DEFAULT db_now_ms(),   -- when it last became ready (lateness, queue time)
    done_at     bigint,                                 -- acked or dead since
    CHECK ((state = 'in_flight') = (lease_until IS NOT NULL)),
    CHECK (state NOT IN ('in_flight', 'acked') OR claim IS NOT NULL),
    CHECK ((state = 'waiting') = (retry_at IS NOT NULL))
);
-- The claim's index: only ready rows, in firing order, so a claim reads the front of it and nothing else.
CREATE INDEX deliveries_ready ON deliveries (clock, fire_time, priority, seq) WHERE state = 'ready';
CREATE INDEX deliveries_leases ON deliveries (clock, lease_until) WHERE state = 'in_flight';
CREATE INDEX deliveries_waiting ON deliveries (clock, retry_at) WHERE state = 'waiting';
CREATE INDEX deliveries_dead ON deliveries (clock, seq) WHERE state = 'dead';
CREATE INDEX deliveries_acked ON deliveries (done_at) WHERE state = 'acked';

-- The pending budget (timeservice.capacity and capacity-bytes over every clock: pending timers and unacknowledged
-- deliveries), split into stripes so that concurrent changes rarely wait for one row. Each stripe owns an
-- allowance; a change that fits its stripe's allowance updates that one row, as the last statement of its
-- transaction. One that does not locks every stripe in stripe order, decides exactly against the configured
-- capacity and redistributes what is left. Invariant: timers <= timer_allowance and bytes <= byte_allowance per
-- stripe, and the allowances sum to the capacity, so the pending total never exceeds it.
CREATE TABLE pending_budget (
    stripe          smallint PRIMARY KEY,
    timers          bigint NOT NULL DEFAULT 0,
    bytes           bigint NOT NULL DEFAULT 0,
    timer_allowance bigint NOT NULL DEFAULT 0,
    byte_allowance  bigint NOT NULL DEFAULT 0
);
INSERT INTO pending_budget (stripe) SELECT generate_series(0, 15);
