package io.timeservice.client;

import java.time.Instant;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A recurring schedule as the service answered it: its spec (an interval's implied start and a cron's zone filled
 * in) and what firing has done so far. While active it has exactly one occurrence pending, a timer
 * {@code <id>:<time>} whose {@link Timer#schedule()} is the schedule's id.
 *
 * @param id        the schedule's id (1 to 100 timer-id characters)
 * @param spec      what it fires
 * @param next      the pending occurrence's time, or null when none is left
 * @param fired     occurrences fired, triggered ones included
 * @param skipped   occurrences skipped (paused, or missed and not caught up)
 * @param triggered extra occurrences fired by {@link ScheduleClient#trigger}
 * @param state     active, paused or done
 * @param version   1 at creation, plus one per replace, pause and resume
 */
public record Schedule(String id, ScheduleSpec spec, Instant next, long fired, long skipped, long triggered,
                       State state, long version) {

    /** Where a schedule is: firing, paused, or with nothing left to fire. */
    public enum State { ACTIVE, PAUSED, DONE }

    /** The entity tag of this version, {@code "<version>"}: pass it as If-Match. */
    public String etag() {
        return "\"" + version + "\"";
    }

    static Schedule of(JsonNode node) {
        return new Schedule(node.get("id").asText(), ScheduleSpec.of(node), Json.instant(node, "next"),
                node.get("fired").asLong(), node.get("skipped").asLong(), node.get("triggered").asLong(),
                State.valueOf(node.get("state").asText().toUpperCase(Locale.ROOT)), node.get("version").asLong());
    }
}
