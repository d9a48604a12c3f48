package io.timeservice.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a recurring schedule fires: a Unix cron expression read in a time zone, or an interval, with optional bounds,
 * priority, payload and catch-up. Immutable, chained:
 * {@code ScheduleSpec.cron("30 2 * * *", ZoneId.of("Europe/Berlin")).withLimit(7).withPayload("{\"job\":\"backup\"}")}.
 * The service checks the rules (a malformed or never-firing cron, an interval under 1 s, an end before the start:
 * 400 {@code invalid_schedule}); its docs/SCHEDULES.md has the cron dialect and the DST rules.
 *
 * @param cron        five fields (six with seconds first) or a macro such as {@code @daily}; null for an interval
 * @param zone        the zone of the cron's local times, or null for the service's UTC; only with a cron
 * @param every       the interval (at least 1 s) of occurrences {@code start + k * every}; null for a cron
 * @param start       no occurrence before it, or null (a cron: its first match after now; an interval: now + every)
 * @param end         no occurrence after it, or null for none
 * @param limit       the most occurrences in all (fired and skipped; triggered ones not counted), or null for none
 * @param priority    each occurrence's priority
 * @param payloadJson each occurrence's payload as JSON, or null for none
 * @param catchUp     what a system or scaled clock does with occurrences it missed
 * @param paused      true: created paused ({@link ScheduleClient#resume})
 */
public record ScheduleSpec(String cron, ZoneId zone, Duration every, Instant start, Instant end, Long limit,
                           int priority, String payloadJson, CatchUp catchUp, boolean paused) {

    /** Which occurrences a clock that missed several (it was down, or firing was held back) fires. */
    public enum CatchUp { ALL, LATEST, NONE }

    public ScheduleSpec {
        Objects.requireNonNull(catchUp, "catchUp");
    }

    /** A cron schedule read in UTC. */
    public static ScheduleSpec cron(String expression) {
        return cron(expression, null);
    }

    /** A cron schedule whose local times are {@code zone}'s (null: UTC). */
    public static ScheduleSpec cron(String expression, ZoneId zone) {
        return new ScheduleSpec(Objects.requireNonNull(expression, "expression"), zone, null, null, null, null, 0,
                null, CatchUp.ALL, false);
    }

    /** An interval schedule: every {@code interval}, first at now + interval unless {@link #withStart} says. */
    public static ScheduleSpec every(Duration interval) {
        return new ScheduleSpec(null, null, Objects.requireNonNull(interval, "interval"), null, null, null, 0, null,
                CatchUp.ALL, false);
    }

    public ScheduleSpec withStart(Instant newStart) {
        return new ScheduleSpec(cron, zone, every, newStart, end, limit, priority, payloadJson, catchUp, paused);
    }

    public ScheduleSpec withEnd(Instant newEnd) {
        return new ScheduleSpec(cron, zone, every, start, newEnd, limit, priority, payloadJson, catchUp, paused);
    }

    public ScheduleSpec withLimit(long newLimit) {
        return new ScheduleSpec(cron, zone, every, start, end, newLimit, priority, payloadJson, catchUp, paused);
    }

    public ScheduleSpec withPriority(int newPriority) {
        return new ScheduleSpec(cron, zone, every, start, end, limit, newPriority, payloadJson, catchUp, paused);
    }

    /** Each occurrence's payload, any JSON value (null: none). */
    public ScheduleSpec withPayload(String newPayloadJson) {
        return new ScheduleSpec(cron, zone, every, start, end, limit, priority, newPayloadJson, catchUp, paused);
    }

    public ScheduleSpec withCatchUp(CatchUp newCatchUp) {
        return new ScheduleSpec(cron, zone, every, start, end, limit, priority, payloadJson, newCatchUp, paused);
    }

    public ScheduleSpec withPaused(boolean newPaused) {
        return new ScheduleSpec(cron, zone, every, start, end, limit, priority, payloadJson, catchUp, newPaused);
    }

    ObjectNode json() {
        ObjectNode node = Json.object();
        if (cron != null) {
            node.put("cron", cron);
        }
        if (zone != null) {
            node.put("zone", zone.getId());
        }
        if (every != null) {
            node.put("every", Json.millis(every, "every"));
        }
        if (start != null) {
            node.put("start", start.toEpochMilli());
        }
        if (end != null) {
            node.put("end", end.toEpochMilli());
        }
        if (limit != null) {
            node.put("limit", limit.longValue());
        }
        if (priority != 0) {
            node.put("priority", priority);
        }
        Json.putPayload(node, payloadJson);
        return node.put("catchUp", catchUp.name().toLowerCase(Locale.ROOT)).put("paused", paused);
    }

    static ScheduleSpec of(JsonNode node) {
        String zone = Json.text(node, "zone");
        JsonNode every = node.get("every");
        JsonNode limit = node.get("limit");
        return new ScheduleSpec(Json.text(node, "cron"), zone == null ? null : ZoneId.of(zone),
                every == null ? null : Duration.ofMillis(every.asLong()), Json.instant(node, "start"),
                Json.instant(node, "end"), limit == null ? null : limit.asLong(), node.path("priority").asInt(),
                Json.payload(node), CatchUp.valueOf(node.get("catchUp").asText().toUpperCase(Locale.ROOT)),
                node.get("paused").asBoolean());
    }
}
