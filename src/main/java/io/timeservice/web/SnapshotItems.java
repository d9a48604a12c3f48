package io.timeservice.web;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRate;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.Reservation;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleRules;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.SnapshotRules;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.model.TraceContext;
import io.timeservice.web.SnapshotValues.OneOf;
import io.timeservice.web.SnapshotValues.Range;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The items of a snapshot document ({@code openapi.yaml}'s {@code Snapshot}) as Jackson binds them, one at a time,
 * while {@link SnapshotReader} streams the document: the clock and each timer, delivery and schedule. A member left
 * out is null here and takes its default in the model; the values are checked as they are bound
 * ({@link SnapshotValues}), the members an item needs after it ({@code require}).
 */
final class SnapshotItems {

    private static final long INT_MIN = Integer.MIN_VALUE;
    private static final long INT_MAX = Integer.MAX_VALUE;

    private SnapshotItems() {
    }

    /**
     * An item's object: a member it does not know is refused as Jackson meets it, before its value is read (Jackson
     * would otherwise keep it and refuse it once the object ends, after members that follow it).
     */
    interface Item {
        @JsonAnySetter
        default void unknown(String name, SnapshotValues.Unknown value) {
            throw new IllegalStateException("SnapshotValues.Unknown refuses every value");
        }
    }

    /** The clock: its settings as {@code PUT /clocks/{clock}} takes them, and where its time and sequence stand. */
    record ClockItem(String name, @OneOf({"virtual", "system", "scaled"}) String mode, ClockRate rate,
                     @OneOf({"response", "queue", "push"}) String delivery,
                     @JsonDeserialize(using = SnapshotValues.RetryValue.class) RetryPolicy retry,
                     @JsonDeserialize(using = SnapshotValues.PushValue.class) PushTarget push,
                     Long now, Long nextSequence,
                     @Range(min = 0, max = Limits.MAX_DEDUPE_WINDOW) Long dedupeWindow,
                     @JsonDeserialize(using = SnapshotValues.FlowValue.class) FlowItem flow, Long clockConcurrency,
                     @JsonDeserialize(using = SnapshotValues.FlowRateValue.class) FlowRate clockRate,
                     @JsonDeserialize(using = SnapshotValues.Nested.class) Map<String, FlowKeyItem> flowKeys)
            implements Item {

        /** The settings, refused together at the clock when mode, delivery and rate do not agree. */
        ClockSettings settings(String pointer) {
            try {
                return ClockSettings.of(mode == null ? null : ClockSettings.Mode.valueOf(upper(mode)),
                        delivery == null ? null : ClockSettings.DeliveryMode.valueOf(upper(delivery)), retry, rate,
                        push).withDedupeWindow(or(dedupeWindow, 0)).withFlow(flowLimits());
            } catch (ProblemException invalid) {
                throw SnapshotRules.refused(pointer, invalid.getMessage());
            }
        }

        /** The flow control read (issue 44), or null; a count beyond an int is refused by the rules as out of range. */
        private FlowLimits flowLimits() {
            if (flow == null && clockConcurrency == null && clockRate == null && flowKeys == null) {
                return null;
            }
            TreeMap<String, FlowOverride> keys = new TreeMap<>();
            if (flowKeys != null) {
                flowKeys.forEach((key, item) -> keys.put(key, item == null ? new FlowOverride(null, null)
                        : new FlowOverride(narrow(item.concurrency()), item.rate())));
            }
            return new FlowLimits(flow == null ? null : narrow(flow.concurrency()), flow == null ? null : flow.rate(),
                    flow == null ? null : narrow(flow.burst()), narrow(clockConcurrency), clockRate, keys);
        }
    }

    /** One key's override of the clock's flow control, by key in {@code flowKeys}: each member optional. */
    record FlowKeyItem(Long concurrency,
                       @JsonDeserialize(using = SnapshotValues.FlowRateValue.class) FlowRate rate) implements Item {
    }

    /** A clock's per-key flow control: {@code concurrency}, {@code rate}, {@code burst}, each optional. */
    record FlowItem(Long concurrency, @JsonDeserialize(using = SnapshotValues.FlowRateValue.class) FlowRate rate,
                    Long burst) implements Item {
    }

    /** A rate of flow control: {@code limit} per {@code period} ms, both required. */
    record RateItem(Long limit, Long period) implements Item {

        FlowRate rate() {
            if (limit == null || period == null) {
                throw SnapshotValues.refused("member " + (limit == null ? "limit" : "period") + " is required");
            }
            return new FlowRate(limit, period);
        }
    }

    /** A queue clock's retry policy; what it leaves out is the default's. */
    record RetryItem(@Range(min = INT_MIN, max = INT_MAX) Long maxAttempts, Long initialBackoff, Long maxBackoff,
                     Double multiplier, Double jitter, Long maxRetryDuration) implements Item {

        RetryPolicy policy() {
            RetryPolicy d = RetryPolicy.DEFAULT;
            return new RetryPolicy(maxAttempts != null ? maxAttempts.intValue() : d.maxAttempts(),
                    or(initialBackoff, d.initialBackoffMillis()), multiplier != null ? multiplier : d.multiplier(),
                    or(maxBackoff, d.maxBackoffMillis()), jitter != null ? jitter : d.jitter(),
                    or(maxRetryDuration, 0));
        }
    }

    /**
     * A push clock's target. A saved document shows {@code secretsCount} in place of the write-only secrets, so it is
     * taken and ignored: the clock loads unsigned unless the document is given {@code secrets}.
     */
    record PushItem(String url, Long timeout, @Range(min = INT_MIN, max = INT_MAX) Long concurrency,
                    @JsonDeserialize(using = SnapshotValues.Nested.class) Map<String, String> headers,
                    @JsonDeserialize(using = SnapshotValues.Nested.class) List<String> secrets,
                    @Range(min = 0, max = PushTarget.MAX_SECRETS) Long secretsCount) implements Item {

        PushTarget target() {
            return new PushTarget(url, or(timeout, PushTarget.DEFAULT_TIMEOUT_MILLIS),
                    concurrency != null ? concurrency.intValue() : PushTarget.DEFAULT_CONCURRENCY, headers, secrets);
        }
    }

    record TimerItem(String id, Long fireTime, @Range(min = INT_MIN, max = INT_MAX) Long priority, Long sequence,
                     @JsonDeserialize(using = SnapshotValues.Payload.class) String payload, String schedule,
                     @Range(min = 1, max = Timer.MAX_VERSION) Long version, Long createdAt, String traceparent,
                     String tracestate, String key) implements Item {

        Timer timer(String pointer) {
            requireFired(pointer, id, fireTime, sequence);
            return new Timer(id, fireTime, or(priority, 0).intValue(), sequence, or(version, 1), or(createdAt, 0),
                    payload, schedule, traceContext(pointer, traceparent, tracestate), key);
        }
    }

    record DeliveryItem(String id, Long fireTime, @Range(min = INT_MIN, max = INT_MAX) Long priority, Long sequence,
                        @JsonDeserialize(using = SnapshotValues.Payload.class) String payload, String schedule,
                        @Range(min = INT_MIN, max = INT_MAX) Long attempt,
                        @OneOf({"ready", "in_flight", "waiting", "dead"}) String state, Long readyAt,
                        @Range(min = 1, max = Long.MAX_VALUE) Long retryAt, String deadReason, String traceparent,
                        String tracestate, String key) implements Item {

        Delivery delivery(String pointer) {
            requireFired(pointer, id, fireTime, sequence);
            require(state != null, pointer, "state");
            return new Delivery(id, fireTime, or(priority, 0).intValue(), sequence, payload, or(attempt, 1).intValue(),
                    Delivery.State.valueOf(upper(state)), null, 0, or(retryAt, 0), or(readyAt, fireTime), deadReason,
                    schedule, traceContext(pointer, traceparent, tracestate), key);
        }
    }

    /**
     * A schedule: its spec as {@code PUT /clocks/{clock}/schedules/{id}} takes it, then what firing has done.
     * {@code id} and {@code next} (null once none is left) are required; {@code state} is checked against the rest
     * once the rules have passed ({@link SnapshotReader}).
     */
    record ScheduleItem(String id, String cron, Long every, String zone, Long start, Long end, Long limit,
                        @Range(min = INT_MIN, max = INT_MAX) Long priority,
                        @JsonDeserialize(using = SnapshotValues.Payload.class) String payload,
                        @OneOf({"all", "latest", "none"}) String catchUp, Boolean paused,
                        @JsonDeserialize(using = SnapshotValues.NextValue.class) Next next, Long fired, Long skipped,
                        Long triggered, Long taken, @OneOf({"active", "paused", "done"}) String state, Long version,
                        String traceparent, String tracestate, String key) implements Item {

        void require(String pointer) {
            SnapshotItems.require(id != null, pointer, "id");
            SnapshotItems.require(next != null, pointer, "next");
            traceContext(pointer, traceparent, tracestate); // refused here, where the pointer is known
        }

        /** The schedule, an interval's implied start resolved against the clock's {@code now} as a put does. */
        Schedule schedule(long now) {
            ScheduleSpec spec = ScheduleRules.resolveSchedule(new ScheduleSpec(cron, every, zone, start, end, limit,
                    or(priority, 0).intValue(), payload, catchUp == null ? ScheduleSpec.CatchUp.ALL
                    : ScheduleSpec.CatchUp.ofWire(catchUp), paused != null && paused,
                    traceContext("", traceparent, tracestate), key), now);
            return new Schedule(id, spec, next.at(), or(fired, 0), or(skipped, 0), or(triggered, 0),
                    or(taken, Long.MIN_VALUE), or(version, 1));
        }
    }

    /** A reserved id (issue 43): {@code id}, {@code state}, {@code time} and {@code sequence}, each required. */
    record ReservationItem(String id, @OneOf({"fired", "acknowledged", "dead", "cancelled"}) String state, Long time,
                           Long sequence) implements Item {

        Reservation reservation(String pointer) {
            require(id != null, pointer, "id");
            require(state != null, pointer, "state");
            require(time != null, pointer, "time");
            require(sequence != null, pointer, "sequence");
            try {
                TimerRules.requireValidId(id);
            } catch (ProblemException invalid) {
                throw SnapshotRules.refused(pointer + "/id", invalid.getMessage());
            }
            return new Reservation(id, Reservation.State.valueOf(upper(state)), time, sequence);
        }
    }

    /** A schedule's {@code next} as given: {@code at} null when the document says none is left. */
    record Next(Long at) {
    }

    /** The members a timer and a delivery need: its id, when it is due, and its sequence. */
    private static void requireFired(String pointer, String id, Long fireTime, Long sequence) {
        require(id != null, pointer, "id");
        require(fireTime != null, pointer, "fireTime");
        require(sequence != null, pointer, "sequence");
    }

    /** The optional W3C trace context of a timer or delivery (issue 46), refused at its item when malformed. */
    private static String traceContext(String pointer, String traceparent, String tracestate) {
        if (traceparent == null && tracestate == null) {
            return null;
        }
        String context = TraceContext.of(traceparent, tracestate);
        if (context == null || (tracestate != null && TraceContext.tracestate(context) == null)) {
            throw SnapshotRules.refused(pointer, TraceContext.notValid(traceparent, tracestate));
        }
        return context;
    }

    private static void require(boolean present, String pointer, String member) {
        if (!present) {
            throw SnapshotRules.refused(pointer + "/" + member, "member " + member + " is required");
        }
    }

    private static Integer narrow(Long value) {
        return value == null ? null : (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
    }

    private static Long or(Long value, long absent) {
        return value != null ? value : absent;
    }

    private static String upper(String wire) {
        return wire.toUpperCase(Locale.ROOT);
    }
}
