-- How many schedules exist over all clocks, for timeservice.schedules.max: a create adds one to this row only while
-- it stays within the limit, so two instances creating at once never pass it together (a count(*) would let both
-- see room). A create of a schedule holds the row until its commit; replaces and deletes of existing ones do not
-- wait for it (a delete gives one back).
CREATE TABLE schedule_count (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    schedules bigint NOT NULL CHECK (schedules >= 0)
);
INSERT INTO schedule_count (schedules) VALUES (0);
