package io.timeservice.client;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Adds, edits and cancels on one clock, applied in order and all or nothing by {@link #commit()} (1 to 1,000
 * operations). Each operation is checked as its single call would be, against the state the ones before it leave;
 * if one is refused nothing changes and the {@link TimeServiceException}'s {@code problem().op()} is its index.
 * A builder: not thread-safe, and meant to be committed once.
 */
public final class TimerBatch {

    private final ClockClient clock;
    private final ArrayNode ops = Json.MAPPER.createArrayNode();

    TimerBatch(ClockClient clock) {
        this.clock = clock;
    }

    public TimerBatch add(String id, Duration delay) {
        return add(id, delay, 0, null);
    }

    public TimerBatch add(String id, Duration delay, int priority, String payloadJson) {
        return add(ClockClient.addition(id, "delay", Json.millis(delay, "delay"), priority, payloadJson));
    }

    /** As {@link #add(String, Duration, int, String)}, the timer carrying the flow-control {@code key}. */
    public TimerBatch add(String id, Duration delay, int priority, String payloadJson, String key) {
        return add(ClockClient.addition(id, "delay", Json.millis(delay, "delay"), priority, payloadJson)
                .put("key", java.util.Objects.requireNonNull(key, "key")));
    }

    /**
     * As {@link #add(String, Duration, int, String)}, deciding by {@code options}' {@link AddOptions#onConflict}
     * ({@code keep}: throttle, {@code replace}: debounce) when the id is pending, reserved or added earlier in this
     * batch, and with its flow-control {@link AddOptions#key}; the operation's {@link BatchResult#decided()} says
     * which happened. An {@code Idempotency-Key} belongs to a whole request, not to one of its operations: options
     * that carry one are refused.
     */
    public TimerBatch add(String id, Duration delay, int priority, String payloadJson, AddOptions options) {
        return add(ClockClient.addition(id, "delay", Json.millis(delay, "delay"), priority, payloadJson), options);
    }

    /** Adds a timer due at the clock time {@code at} (now when it is not after now), as {@link ClockClient#addAt}. */
    public TimerBatch addAt(String id, Instant at) {
        return addAt(id, at, 0, null);
    }

    public TimerBatch addAt(String id, Instant at, int priority, String payloadJson) {
        return add(ClockClient.addition(id, "at", at.toEpochMilli(), priority, payloadJson));
    }

    /** As {@link #addAt(String, Instant, int, String)}, with {@code options}: see {@link #add(String, Duration, int,
     * String, AddOptions)}. */
    public TimerBatch addAt(String id, Instant at, int priority, String payloadJson, AddOptions options) {
        return add(ClockClient.addition(id, "at", at.toEpochMilli(), priority, payloadJson), options);
    }

    private TimerBatch add(ObjectNode addition, AddOptions options) {
        if (options.idempotencyKey() != null) {
            throw new IllegalArgumentException("an Idempotency-Key goes with a whole request, not one batch operation");
        }
        if (options.onConflict() != null) {
            addition.put("onConflict", options.onConflict().wire());
        }
        if (options.key() != null) {
            addition.put("key", options.key());
        }
        return add(addition);
    }

    private TimerBatch add(ObjectNode addition) {
        ops.add(addition.put("op", "add"));
        return this;
    }

    public TimerBatch edit(String id, Duration delay) {
        return edit(id, TimerEdit.delay(delay));
    }

    public TimerBatch edit(String id, TimerEdit edit) {
        ops.add(conditional(edit.json().put("op", "edit").put("id", id), edit.ifMatch()));
        return this;
    }

    public TimerBatch cancel(String id) {
        return cancel(id, null);
    }

    public TimerBatch cancel(String id, String ifMatch) {
        ops.add(conditional(Json.object().put("op", "cancel").put("id", id), ifMatch));
        return this;
    }

    /** How many operations the batch holds. */
    public int size() {
        return ops.size();
    }

    /** Applies every operation, all or nothing; answers each one's result in order. */
    public List<BatchResult> commit() {
        return clock.commit(ops);
    }

    private static ObjectNode conditional(ObjectNode op, String ifMatch) {
        return ifMatch == null ? op : op.put("ifMatch", ifMatch);
    }
}
