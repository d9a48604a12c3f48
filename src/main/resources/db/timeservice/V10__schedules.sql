-- Recurring schedules (issue 31; docs/POSTGRES-STORE.md, "Schedules"). A schedule's spec as the client gave it
-- (resolved: an interval's implied start filled in), and what firing has done. Each active schedule has exactly one
-- pending occurrence: a row of timers with id '<schedule id>:<occurrence ms>', so the timers' primary key (clock, id)
-- keeps two instances from ever both creating it, and the DELETE that fires it succeeds once.
CREATE TABLE schedules (
    clock            text    NOT NULL REFERENCES clocks (name) ON DELETE CASCADE,
    id               text    NOT NULL,
    cron             text,
    every_ms         bigint,
    zone             text,
    start_ms         bigint,
    end_ms           bigint,
    occurrence_limit bigint,
    priority         integer NOT NULL,
    payload          text,
    catch_up         text    NOT NULL CHECK (catch_up IN ('all', 'latest', 'none')),
    paused           boolean NOT NULL,
    -- the pending scheduled occurrence's time, NULL when none is left (done)
    pending          bigint,
    fired            bigint  NOT NULL DEFAULT 0,
    skipped          bigint  NOT NULL DEFAULT 0,
    triggered        bigint  NOT NULL DEFAULT 0,
    -- the last scheduled occurrence fired or skipped (a replace continues after it), -2^63 for none
    taken            bigint  NOT NULL,
    version          bigint  NOT NULL CHECK (version >= 1),
    CHECK ((cron IS NULL) <> (every_ms IS NULL)),
    PRIMARY KEY (clock, id)
);

-- The schedule whose occurrence a timer (and then its delivery) is; NULL for a client's timer. triggered: an extra
-- occurrence added by trigger, which fires as it is and is followed by nothing.
ALTER TABLE timers ADD COLUMN schedule text;
ALTER TABLE timers ADD COLUMN triggered boolean NOT NULL DEFAULT false;
ALTER TABLE deliveries ADD COLUMN schedule text;
