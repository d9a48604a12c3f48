package io.timeservice.model;

import java.util.Locale;

/**
 * A recurring schedule as a client gives it ({@code PUT /clocks/{clock}/schedules/{id}}): exactly one of
 * {@code cron} and {@code every}, the rest optional. {@link ScheduleRules#requireSchedule} checks the form and
 * {@link ScheduleRules#resolveSchedule} fills in what is implied by the clock's now; a store keeps the resolved spec.
 *
 * @param cron     Unix cron (five fields, or six with seconds first, or a macro such as {@code @daily}), or null
 * @param every    the interval in milliseconds (at least {@value Limits#MIN_EVERY_MILLIS}), or null
 * @param zone     IANA zone of a cron schedule's local times; null means {@code UTC}; only with {@code cron}
 * @param start    no occurrence before this clock time (epoch ms); for {@code every}, the first occurrence
 *                 ({@code start + k * every}, k >= 0); null: a cron schedule starts after now, an interval at
 *                 {@code now + every}
 * @param end      no occurrence after this clock time, or null
 * @param limit    most occurrences in all (fired and skipped, triggered ones not counted), or null
 * @param priority each occurrence's priority
 * @param payload  each occurrence's payload text, or null
 * @param catchUp  what a wall clock does with occurrences missed while firing could not run
 * @param paused   occurrences that come due are skipped and counted while true
 * @param traceContext the W3C trace context of the request that created or last replaced the schedule
 *                 ({@link TraceContext}), which its occurrences keep; or null. Not part of what a client sets.
 * @param key      the flow-control key ({@link Timer#key}) each occurrence carries, or null for none
 */
public record ScheduleSpec(String cron, Long every, String zone, Long start, Long end, Long limit, int priority,
                           String payload, CatchUp catchUp, boolean paused, String traceContext, String key) {

    /** A spec without a flow-control key. */
    public ScheduleSpec(String cron, Long every, String zone, Long start, Long end, Long limit, int priority,
                        String payload, CatchUp catchUp, boolean paused, String traceContext) {
        this(cron, every, zone, start, end, limit, priority, payload, catchUp, paused, traceContext, null);
    }

    /** A spec without a trace context. */
    public ScheduleSpec(String cron, Long every, String zone, Long start, Long end, Long limit, int priority,
                        String payload, CatchUp catchUp, boolean paused) {
        this(cron, every, zone, start, end, limit, priority, payload, catchUp, paused, null, null);
    }

    public ScheduleSpec {
        if (catchUp == null) {
            catchUp = CatchUp.ALL;
        }
    }

    /** The zone of a cron schedule's local times: {@code zone}, or {@code UTC} when none is given. */
    public String zoneOrUtc() {
        return zone == null ? "UTC" : zone;
    }

    /** This spec with {@code paused} set as given (pause and resume change nothing else). */
    public ScheduleSpec withPaused(boolean pause) {
        return new ScheduleSpec(cron, every, zone, start, end, limit, priority, payload, catchUp, pause, traceContext,
                key);
    }

    /** This spec with the trace context {@code context} (null: none). */
    public ScheduleSpec withTraceContext(String context) {
        return new ScheduleSpec(cron, every, zone, start, end, limit, priority, payload, catchUp, paused, context,
                key);
    }

    /** This spec with the flow-control key {@code flowKey} (null: none). */
    public ScheduleSpec withKey(String flowKey) {
        return new ScheduleSpec(cron, every, zone, start, end, limit, priority, payload, catchUp, paused,
                traceContext, flowKey);
    }

    /** This spec with {@code start} set (an interval schedule's implied start, resolved once at its creation). */
    public ScheduleSpec withStart(Long newStart) {
        return new ScheduleSpec(cron, every, zone, newStart, end, limit, priority, payload, catchUp, paused,
                traceContext, key);
    }

    /**
     * What a wall clock does with occurrences that came due while the service was down or firing was held back, and
     * what any clock does beyond {@code timeservice.schedules.max-catch-up} occurrences of one schedule in one step.
     */
    public enum CatchUp {
        /** Each missed occurrence fires, at most max-catch-up per schedule per step; the rest are skipped. */
        ALL,
        /** Only the last missed occurrence fires; the ones before it are skipped. */
        LATEST,
        /** No missed occurrence fires; all are skipped. */
        NONE;

        /** The wire form: {@code all}, {@code latest}, {@code none}. */
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The value of a wire form, or null for an unknown one. */
        public static CatchUp ofWire(String wire) {
            for (CatchUp value : values()) {
                if (value.wire().equals(wire)) {
                    return value;
                }
            }
            return null;
        }
    }
}
