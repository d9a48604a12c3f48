-- Dedupe windows (issue 43 item 1): a clock's window is the member dedupeWindow of clocks.settings (milliseconds,
-- absent or 0: none). One row per id the clock keeps reserved after its timer left the pending set: how it left
-- (state), the clock time its window counts from (time), the timer's sequence (seq), and when the reservation ends on
-- the clock's own time (expires_at = time + window; NULL while a fired timer's delivery is still queued). An add
-- reads its id's row under the primary key; the purge deletes a clock's rows by expires_at (V33's index).
CREATE TABLE reservations (
    clock      text   NOT NULL REFERENCES clocks (name) ON DELETE CASCADE,
    id         text   NOT NULL,
    state      text   NOT NULL CHECK (state IN ('fired', 'acknowledged', 'dead', 'cancelled')),
    time       bigint NOT NULL,
    seq        bigint NOT NULL,
    expires_at bigint,
    PRIMARY KEY (clock, id)
);
