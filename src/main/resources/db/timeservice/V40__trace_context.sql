-- Issue 46: the W3C trace context of the request that added a timer (its traceparent, then ';' and its tracestate),
-- kept with the timer and with its delivery so that firing and delivery continue that trace. Null for none. Adding a
-- nullable column without a default changes only the catalogue: no table rewrite, no long lock.
ALTER TABLE timers ADD COLUMN trace_context text;
ALTER TABLE deliveries ADD COLUMN trace_context text;
-- A schedule's: the request that created or last replaced it; its occurrence timers take it.
ALTER TABLE schedules ADD COLUMN trace_context text;
