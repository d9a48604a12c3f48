-- Scaled clocks (issue 33, item 4): a clock whose time runs at a rate times the database's clock. Its function is
-- anchored at (anchor_wall, now_ms): the database's clock (Unix epoch ms) and the clock's time at its creation or
-- last rate change; rate_millionths is the rate times 1,000,000 (ClockRate), so every instance computes the same
-- time from the same row. Both are null for the other modes.
ALTER TABLE clocks DROP CONSTRAINT clocks_mode_check;
ALTER TABLE clocks ADD CONSTRAINT clocks_mode_check CHECK (mode IN ('virtual', 'system', 'scaled'));
ALTER TABLE clocks ADD COLUMN rate_millionths bigint CHECK (rate_millionths BETWEEN 0 AND 100000000000);
ALTER TABLE clocks ADD COLUMN anchor_wall bigint;
ALTER TABLE clocks ADD CONSTRAINT clocks_scaled_anchor
    CHECK ((mode = 'scaled') = (rate_millionths IS NOT NULL AND anchor_wall IS NOT NULL));
