package io.timeservice.web;

import java.math.BigDecimal;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The JSON bodies the API reads, bound by {@link StrictJsonConverter}: a member's type is its whole rule here (no
 * coercion, no {@code null} for a member that may only be absent); ranges, id syntax and "an edit needs something
 * to change" are the scheduler's to check, once.
 */
sealed interface JsonRequest {

    /**
     * {@code POST /timers}; {@code payload} is any JSON value, numbers kept as written; exactly one of {@code delay}
     * and {@code at} ({@link ClockTimeMember} reads {@code at}).
     */
    record AddTimer(@JsonProperty(required = true) String id,
                    @JsonDeserialize(using = AbsentOrNonNull.class) Long delay,
                    @JsonDeserialize(using = AbsentOrNonNull.class) JsonNode at,
                    @JsonDeserialize(using = AbsentOrNonNull.class) Integer priority,
                    JsonNode payload,
                    @JsonDeserialize(using = AbsentOrNonNull.class) String onConflict,
                    @JsonDeserialize(using = AbsentOrNonNull.class) String key) implements JsonRequest {

        AddTimer(String id, Long delay, JsonNode at, Integer priority, JsonNode payload) {
            this(id, delay, at, priority, payload, null, null);
        }
    }

    /** {@code PATCH /timers/{id}}: an absent member keeps its value; at most one of {@code delay} and {@code at}. */
    record EditTimer(@JsonDeserialize(using = AbsentOrNonNull.class) Long delay,
                     @JsonDeserialize(using = AbsentOrNonNull.class) JsonNode at,
                     @JsonDeserialize(using = AbsentOrNonNull.class) Integer priority) implements JsonRequest {
    }

    /** {@code POST /batch}: the operations, each bound by its {@code op} ({@link BatchController}). */
    record Batch(@JsonProperty(required = true) JsonNode ops) implements JsonRequest {
    }

    /**
     * {@code PUT /clocks/{clock}}: the time a new virtual clock starts at (0 when absent), and its settings; an
     * absent setting takes its default ({@link io.timeservice.model.ClockSettings#of}).
     */
    /**
     * @param copyOf       the clock to copy (a fork), alone: the copy takes the source's time and settings
     * @param dedupeWindow milliseconds an id stays reserved after its timer left (0 when absent)
     */
    record PutClock(@JsonDeserialize(using = AbsentOrNonNull.class) Long now,
                    @JsonDeserialize(using = AbsentOrNonNull.class) ClockMode mode,
                    @JsonDeserialize(using = AbsentOrNonNull.class) DeliveryMode delivery,
                    @JsonDeserialize(using = AbsentOrNonNull.class) Retry retry,
                    @JsonDeserialize(using = AbsentOrNonNull.class) String copyOf,
                    @JsonDeserialize(using = AbsentOrNonNull.class) BigDecimal rate,
                    @JsonDeserialize(using = AbsentOrNonNull.class) Push push,
                    @JsonDeserialize(using = AbsentOrNonNull.class) Long dedupeWindow,
                    @JsonDeserialize(using = AbsentOrNonNull.class) Flow flow,
                    @JsonDeserialize(using = AbsentOrNonNull.class) Integer clockConcurrency,
                    @JsonDeserialize(using = AbsentOrNonNull.class) Rate clockRate) implements JsonRequest {

        PutClock(Long now, ClockMode mode, DeliveryMode delivery, Retry retry) {
            this(now, mode, delivery, retry, null, null, null, null, null, null, null);
        }

        /** Whether the body sets any of flow control's members. */
        boolean flowControl() {
            return flow != null || clockConcurrency != null || clockRate != null;
        }
    }

    /** A clock's flow control per key ({@link io.timeservice.model.FlowLimits}); an absent member sets no limit. */
    record Flow(@JsonDeserialize(using = AbsentOrNonNull.class) Integer concurrency,
                @JsonDeserialize(using = AbsentOrNonNull.class) Rate rate,
                @JsonDeserialize(using = AbsentOrNonNull.class) Integer burst) {
    }

    /**
     * {@code PUT /clocks/{clock}/flow/keys/{key}}: one key's own limits ({@link io.timeservice.model.FlowOverride});
     * an absent member keeps the clock's.
     */
    record PutFlowKey(@JsonDeserialize(using = AbsentOrNonNull.class) Integer concurrency,
                      @JsonDeserialize(using = AbsentOrNonNull.class) Rate rate) implements JsonRequest {
    }

    /** A rate limit: {@code limit} deliveries per {@code period} ms of the clock's time. */
    record Rate(@JsonProperty(required = true) long limit, @JsonProperty(required = true) long period) {
    }

    /**
     * A push clock's target ({@code delivery: "push"}); an absent timeout or concurrency takes its default
     * ({@link io.timeservice.model.PushTarget}).
     */
    record Push(@JsonProperty(required = true) String url,
                @JsonDeserialize(using = AbsentOrNonNull.class) Long timeout,
                @JsonDeserialize(using = AbsentOrNonNull.class) Integer concurrency,
                @JsonDeserialize(using = AbsentOrNonNull.class) java.util.Map<String, String> headers,
                @JsonDeserialize(using = AbsentOrNonNull.class) List<String> secrets) {
    }

    /**
     * {@code PATCH /clocks/{clock}}: a scaled clock's new rate, exactly as written (a decimal, not a double), alone; or
     * a live clock's change (issue 47): paused, retry (members left out keep the clock's), clockConcurrency, clockRate.
     */
    record PatchClock(@JsonDeserialize(using = AbsentOrNonNull.class) BigDecimal rate,
                      @JsonDeserialize(using = AbsentOrNonNull.class) Boolean paused,
                      @JsonDeserialize(using = AbsentOrNonNull.class) Retry retry,
                      @JsonDeserialize(using = AbsentOrNonNull.class) Integer clockConcurrency,
                      @JsonDeserialize(using = AbsentOrNonNull.class) Rate clockRate) implements JsonRequest {

        PatchClock(BigDecimal rate) {
            this(rate, null, null, null, null);
        }
    }

    /** A clock's {@code mode} as written in JSON. */
    enum ClockMode { @JsonProperty("virtual") VIRTUAL, @JsonProperty("system") SYSTEM, @JsonProperty("scaled") SCALED }

    /** A clock's {@code delivery} as written in JSON. */
    enum DeliveryMode { @JsonProperty("response") RESPONSE, @JsonProperty("queue") QUEUE, @JsonProperty("push") PUSH }

    /** A clock's retry policy; each absent member keeps {@link io.timeservice.model.RetryPolicy#DEFAULT}'s value. */
    record Retry(@JsonDeserialize(using = AbsentOrNonNull.class) Integer maxAttempts,
                 @JsonDeserialize(using = AbsentOrNonNull.class) Long initialBackoff,
                 @JsonDeserialize(using = AbsentOrNonNull.class) Double multiplier,
                 @JsonDeserialize(using = AbsentOrNonNull.class) Long maxBackoff,
                 @JsonDeserialize(using = AbsentOrNonNull.class) Double jitter,
                 @JsonDeserialize(using = AbsentOrNonNull.class) Long maxRetryDuration) {

        Retry(Integer maxAttempts, Long initialBackoff, Double multiplier, Long maxBackoff, Double jitter) {
            this(maxAttempts, initialBackoff, multiplier, maxBackoff, jitter, null);
        }
    }

    /**
     * {@code POST /deliveries/dead/redrive} and {@code .../delete}: which dead letters; an absent member is no
     * condition, so {@code {}} takes every dead letter of the clock.
     */
    record DeadFilter(@JsonDeserialize(using = AbsentOrNonNull.class) String idPrefix,
                      @JsonDeserialize(using = AbsentOrNonNull.class) Integer minAttempt,
                      @JsonDeserialize(using = AbsentOrNonNull.class) String reason,
                      @JsonDeserialize(using = AbsentOrNonNull.class) Long deadSince) implements JsonRequest {
    }

    /**
     * {@code POST /deliveries/claim}: each absent member takes its default (1, 30 s, no wait); {@code wait} is its
     * JSON name ({@code wait()} is Object's).
     */
    record Claim(@JsonDeserialize(using = AbsentOrNonNull.class) Integer max,
                 @JsonDeserialize(using = AbsentOrNonNull.class) Long lease,
                 @JsonProperty("wait") @JsonDeserialize(using = AbsentOrNonNull.class) Long waitMillis)
            implements JsonRequest {
    }

    /** {@code POST /deliveries/{id}/ack}. */
    record Ack(@JsonProperty(required = true) @JsonDeserialize(using = AbsentOrNonNull.class)
                  String claim) implements JsonRequest {
    }

    /** {@code POST /deliveries/ack}: 1 to 1,000 acknowledgements in one journal record. */
    record AckAll(@JsonProperty(required = true) @JsonDeserialize(using = AbsentOrNonNull.class)
                  List<AckItem> acks) implements JsonRequest {
    }

    /**
     * One acknowledgement of {@link AckAll}; {@code traceparent}, optional, names the trace the worker continued (the
     * delivery's), in which the ack is then recorded — one request acks many deliveries of as many traces.
     */
    record AckItem(@JsonProperty(required = true) @JsonDeserialize(using = AbsentOrNonNull.class) String id,
                   @JsonProperty(required = true) @JsonDeserialize(using = AbsentOrNonNull.class) String claim,
                   @JsonDeserialize(using = AbsentOrNonNull.class) String traceparent) {
    }

    /** {@code POST /deliveries/{id}/nack}: without {@code retryAfter} the clock's backoff decides. */
    record Nack(@JsonProperty(required = true) @JsonDeserialize(using = AbsentOrNonNull.class)
                  String claim,
                @JsonDeserialize(using = AbsentOrNonNull.class) Long retryAfter) implements JsonRequest {
    }

    /** {@code POST /deliveries/{id}/extend}: the lease ends {@code lease} ms from now instead. */
    record Extend(@JsonProperty(required = true) @JsonDeserialize(using = AbsentOrNonNull.class)
                  String claim,
                  @JsonProperty(required = true) long lease) implements JsonRequest {
    }

    /**
     * {@code PUT /clocks/{clock}/schedules/{id}}: exactly one of {@code cron} and {@code every} (the scheduler checks
     * that and every range, once); {@code catchUp} is {@code all}, {@code latest} or {@code none}.
     */
    record PutSchedule(@JsonDeserialize(using = AbsentOrNonNull.class) String cron,
                       @JsonDeserialize(using = AbsentOrNonNull.class) Long every,
                       @JsonDeserialize(using = AbsentOrNonNull.class) String zone,
                       @JsonDeserialize(using = AbsentOrNonNull.class) Long start,
                       @JsonDeserialize(using = AbsentOrNonNull.class) Long end,
                       @JsonDeserialize(using = AbsentOrNonNull.class) Long limit,
                       @JsonDeserialize(using = AbsentOrNonNull.class) Integer priority,
                       JsonNode payload,
                       @JsonDeserialize(using = AbsentOrNonNull.class) CatchUp catchUp,
                       @JsonDeserialize(using = AbsentOrNonNull.class) Boolean paused,
                       @JsonDeserialize(using = AbsentOrNonNull.class) String key) implements JsonRequest {
    }

    /** A schedule's {@code catchUp} as written in JSON. */
    enum CatchUp { @JsonProperty("all") ALL, @JsonProperty("latest") LATEST, @JsonProperty("none") NONE }

    /** {@code POST /clock/advance}: exactly one of {@code by} (from now) and {@code to} (absolute). */
    /** @param next true: to the clock's earliest pending event, instead of {@code by} or {@code to} */
    record Advance(@JsonDeserialize(using = AbsentOrNonNull.class) Long by,
                   @JsonDeserialize(using = AbsentOrNonNull.class) Long to,
                   @JsonDeserialize(using = AbsentOrNonNull.class) Boolean next) implements JsonRequest {

        Advance(Long by, Long to) {
            this(by, to, null);
        }
    }
}
