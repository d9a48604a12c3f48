-- Idempotency-Key (issue 43 item 3): one row per key in its scope (the clock the request addresses, the caller),
-- either a running first request (state 'running', owner names its hold, no answer yet) or its kept answer (state
-- 'kept': status, the headers that matter as "name: value" lines, the body). expires_at (wall-clock milliseconds of
-- the instance that wrote it) is the end of the running lease or of the retention; the purge deletes by it (V31's index). The
-- primary key is what makes two instances racing one key agree: one INSERT wins, the other reads its row.
CREATE TABLE idempotency_keys (
    clock       text   NOT NULL,
    caller      text   NOT NULL,
    key         text   NOT NULL,
    fingerprint text   NOT NULL,
    state       text   NOT NULL CHECK (state IN ('running', 'kept')),
    owner       bigint NOT NULL,
    status      integer,
    headers     text,
    body        bytea,
    expires_at  bigint NOT NULL,
    PRIMARY KEY (clock, caller, key)
);
