package io.timeservice.client;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One clock of a TimeService: its timers, its time and, for a queueing clock, its deliveries. A handle: it holds only
 * the name, so it is cheap, immutable and thread-safe. Times are the clock's own (virtual milliseconds from the
 * epoch, or the wall clock for a system clock).
 */
public final class ClockClient {

    /** The most timers one advance request fires; an advance that has more due goes on in further requests. */
    static final int ADVANCE_LIMIT = 10_000;

    private final Transport transport;
    private final String name;
    private final String path;

    ClockClient(Transport transport, String name) {
        this.transport = transport;
        this.name = name;
        this.path = "/clocks/" + Transport.segment(name);
    }

    public String name() {
        return name;
    }

    /** The clock's time, settings, pending count and (when it queues) deliveries. */
    public ClockInfo info() {
        return ClockInfo.of(transport.send(Transport.Call.get(path)).body());
    }

    /** The clock's current time. */
    public Instant now() {
        return info().now();
    }

    /** Deletes the clock with every timer and delivery it holds. */
    public void delete() {
        transport.send(Transport.Call.once("DELETE", path, null));
    }

    // --- timers ---------------------------------------------------------------------------------------------------

    /** Adds a timer due {@code delay} from now, with priority 0 and no payload. */
    public Timer add(String id, Duration delay) {
        return add(id, delay, 0, null);
    }

    /** Adds a timer due {@code delay} from now; {@code payloadJson} is any JSON value, or null for none. */
    public Timer add(String id, Duration delay, int priority, String payloadJson) {
        return add(id, delay, priority, payloadJson, AddOptions.none());
    }

    /** As {@link #add(String, Duration, int, String)}, with {@code options} (an {@code Idempotency-Key}). */
    public Timer add(String id, Duration delay, int priority, String payloadJson, AddOptions options) {
        return add(addition(id, "delay", Json.millis(delay, "delay"), priority, payloadJson), options);
    }

    /**
     * Adds a timer due at the clock time {@code at}; a time not after the clock's now is due now. The service reads
     * its now and adds the timer in one step, so a concurrent advance cannot come between.
     */
    public Timer addAt(String id, Instant at) {
        return addAt(id, at, 0, null);
    }

    /** Adds a timer due at {@code at}, with a priority and a payload (JSON, or null for none). */
    public Timer addAt(String id, Instant at, int priority, String payloadJson) {
        return add(addition(id, "at", at.toEpochMilli(), priority, payloadJson), AddOptions.none());
    }

    private Timer add(ObjectNode addition, AddOptions options) {
        if (options.onConflict() != null) {
            addition.put("onConflict", options.onConflict().wire());
        }
        if (options.key() != null) {
            addition.put("key", options.key());
        }
        return Timer.of(transport.send(Transport.Call.once("POST", path + "/timers", addition)
                .idempotencyKey(options.idempotencyKey())).body());
    }

    /**
     * Adds a timer due {@code delay} from now, deciding by {@code options}' {@link AddOptions#onConflict} (default
     * {@link OnConflict#KEEP} when the options name none) when the id is pending or reserved; answers what happened.
     */
    public AddResult addDeciding(String id, Duration delay, int priority, String payloadJson, AddOptions options) {
        ObjectNode addition = addition(id, "delay", Json.millis(delay, "delay"), priority, payloadJson);
        addition.put("onConflict", (options.onConflict() == null ? OnConflict.KEEP : options.onConflict()).wire());
        if (options.key() != null) {
            addition.put("key", options.key());
        }
        return AddResult.of(transport.send(Transport.Call.once("POST", path + "/timers", addition)
                .idempotencyKey(options.idempotencyKey())).body());
    }

    /** The pending timer, or empty when no timer with that id is pending. */
    public Optional<Timer> get(String id) {
        return transport.find(Transport.Call.get(timer(id)), "timer_not_found").map(Timer::of);
    }

    /** Gives the timer a new delay from now; it keeps its priority and sequence. */
    public Timer edit(String id, Duration delay) {
        return edit(id, TimerEdit.delay(delay));
    }

    /** Changes the timer's delay, priority or both, conditionally when the edit names an If-Match tag. */
    public Timer edit(String id, TimerEdit edit) {
        Transport.Call call = Transport.Call.once("PATCH", timer(id), edit.json()).ifMatch(edit.ifMatch());
        return Timer.of(transport.send(call).body());
    }

    /** Cancels the pending timer; it never fires. */
    public void cancel(String id) {
        cancel(id, null);
    }

    /** Cancels the timer only if its current revision matches {@code ifMatch} (entity tags or {@code *}). */
    public void cancel(String id, String ifMatch) {
        transport.send(Transport.Call.once("DELETE", timer(id), null).ifMatch(ifMatch));
    }

    /** The first {@code limit} (1 to 1,000) pending timers in firing order. */
    public List<Timer> timers(int limit) {
        return timers("?limit=" + limit);
    }

    /** The first {@code limit} timers due at or before {@code dueBy}: what an advance to it would fire first. */
    public List<Timer> due(Instant dueBy, int limit) {
        return timers("?limit=" + limit + "&dueBy=" + dueBy.toEpochMilli());
    }

    /** The timer that fires next, or empty when none is pending. */
    public Optional<Timer> next() {
        return transport.find(Transport.Call.get(path + "/queue/next"), "queue_empty").map(Timer::of);
    }

    /** A batch of adds, edits and cancels, applied all or nothing by {@link TimerBatch#commit()}. */
    public TimerBatch batch() {
        return new TimerBatch(this);
    }

    // --- time -----------------------------------------------------------------------------------------------------

    /**
     * Moves a virtual clock {@code by} forward from its current time and answers every timer that fired, in firing
     * order. The current time is read first, so with another client advancing the same clock at once the step
     * counts from the time read.
     */
    public List<Timer> advance(Duration by) {
        return advanceTo(now().plusMillis(Json.millis(by, "by")));
    }

    /**
     * Moves a virtual clock to {@code to} (not before its now) and answers every timer that fired, in firing order,
     * however many: beyond 10,000 the advance goes on in further requests.
     */
    public List<Timer> advanceTo(Instant to) {
        return advanceUntilComplete(Json.object().put("to", to.toEpochMilli()));
    }

    /**
     * Sends {@code request} to the advance path until the service answers {@code complete}, gathering every fired
     * timer: an advance that meets its limit moves the clock only to its last fired timer, and the same request
     * continues from there.
     */
    private List<Timer> advanceUntilComplete(ObjectNode request) {
        List<Timer> fired = new ArrayList<>();
        while (true) {
            JsonNode body = transport.send(Transport.Call.once("POST", path + "/advance?limit=" + ADVANCE_LIMIT,
                    request)).body();
            body.get("fired").forEach(node -> fired.add(Timer.of(node)));
            if (body.get("complete").asBoolean()) {
                return fired;
            }
        }
    }

    /**
     * Moves a virtual clock to its next event — a timer coming due, a lease ending, a retry becoming ready — found and
     * reached by the service in one step ({@code {"next": true}}), and answers the timers that fired there; nothing
     * moves and nothing fires when nothing is pending. Beyond 10,000 timers due at once the step goes on in further
     * requests.
     */
    public List<Timer> advanceToNext() {
        return advanceUntilComplete(Json.object().put("next", true));
    }

    /**
     * Changes a scaled clock's rate ({@link ClockOptions#scaled}) from its time now on: its time stays continuous and
     * runs on at {@code rate} clock milliseconds per wall-clock millisecond (0 freezes it). Refused with 409
     * {@code clock_not_scaled} on another clock. Answers the clock with its new rate.
     */
    public ClockInfo changeRate(double rate) {
        return ClockInfo.of(transport.send(Transport.Call.once("PATCH", path, Json.object().put("rate", rate)))
                .body());
    }

    // --- live changes: pause, resume, change ------------------------------------------------------------------------

    /**
     * Pauses a queueing or push clock: timers still fire into deliveries, but no claim and no push hands one out (a due
     * retry neither) until {@link #resume}; deliveries in flight finish as they would, and none is lost. A pause of a
     * paused clock changes nothing. Refused with 400 {@code invalid_request} on a clock that neither queues nor
     * pushes. Answers the clock, {@link ClockInfo#paused} set.
     */
    public ClockInfo pause() {
        return ClockInfo.of(transport.send(Transport.Call.repeatable("POST", path + "/pause", null)).body());
    }

    /**
     * Resumes a paused clock: its held deliveries go out in its ready order (longest ready first). A resume of a
     * running clock changes nothing. Answers the clock.
     */
    public ClockInfo resume() {
        return ClockInfo.of(transport.send(Transport.Call.repeatable("POST", path + "/resume", null)).body());
    }

    /**
     * Changes the live clock's settings ({@link ClockChange}): pause, the retry policy, the clock-wide flow limits;
     * at once and durably. Refused with 400 {@code invalid_request} for flow limits on a clock made without flow
     * control, or a pause of a clock that neither queues nor pushes. Answers the clock as changed.
     */
    public ClockInfo change(ClockChange change) {
        return ClockInfo.of(transport.send(Transport.Call.repeatable("PATCH", path, change.json())).body());
    }

    // --- time machine: fork, save, load ----------------------------------------------------------------------------

    /**
     * Creates the clock {@code newName} as a copy of this one, taken atomically: its time and settings, every timer,
     * schedule and delivery (an in-flight delivery becomes ready with its attempt kept). The two go on independently
     * and fire in the same order. Refused with 409 {@code clock_conflict} when {@code newName} exists. Answers a
     * handle on the copy.
     */
    public ClockClient fork(String newName) {
        transport.send(Transport.Call.once("PUT", "/clocks/" + Transport.segment(newName),
                Json.object().put("copyOf", name)));
        return new ClockClient(transport, newName);
    }

    /** The clock saved as a snapshot document, to load later with {@link TimeServiceClient#loadClock}. */
    public ClockSnapshot snapshot() {
        return new ClockSnapshot(transport.send(Transport.Call.get(path + "/snapshot")).body().toString());
    }

    /** The clock's recurring schedules: cron or interval schedules whose occurrences fire as its timers. */
    public ScheduleClient schedules() {
        return new ScheduleClient(transport, path + "/schedules");
    }

    // --- deliveries -----------------------------------------------------------------------------------------------

    /**
     * Claims up to {@code max} (1 to 1,000) ready deliveries, each leased for {@code lease} (1 s to 12 h); when none
     * is ready, waits up to {@code wait} (at most 30 s) for one. Not retried: deliveries claimed by an answer that
     * was lost come back when their lease ends.
     */
    public List<Delivery> claim(int max, Duration lease, Duration wait) {
        ObjectNode request = Json.object().put("max", max).put("lease", Json.millis(lease, "lease"))
                .put("wait", Json.millis(wait, "wait"));
        JsonNode body = transport.send(Transport.Call.once("POST", path + "/deliveries/claim", request).waiting(wait))
                .body();
        return deliveries(body);
    }

    /**
     * A fresh {@code Idempotency-Key} for one ack, nack or extend: the client's own repeats of that call (after a 503
     * or a lost connection, as a {@link TimerWorker} meets them) are answered with the first answer, so a nack that
     * landed is not counted twice and a repeated ack does not meet {@code claim_lost}. The service keeps those
     * answers for its {@code settlement-retention} (10 min); at its cap of keys the call goes without one.
     */
    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    /** Acknowledges a claimed delivery: it is done and leaves the queue. Refused with 409 {@code claim_lost}. */
    public void ack(Delivery delivery) {
        transport.send(Transport.Call.repeatable("POST", delivery(delivery) + "/ack", claim(delivery))
                .optionalIdempotencyKey(newKey()).inTrace(delivery.traceparent()));
    }

    /**
     * Acknowledges up to 1,000 claimed deliveries in one request; each is decided on its own. Each carries its
     * delivery's {@code traceparent}, so the service records each ack in its own delivery's trace.
     */
    public AckResult ackAll(Collection<Delivery> deliveries) {
        ArrayNode acks = Json.MAPPER.createArrayNode();
        for (Delivery delivery : deliveries) {
            ObjectNode ack = claim(delivery).put("id", delivery.id());
            if (delivery.traceparent() != null) {
                ack.put("traceparent", delivery.traceparent());
            }
            acks.add(ack);
        }
        JsonNode body = transport.send(Transport.Call.repeatable("POST", path + "/deliveries/ack",
                Json.object().set("acks", acks)).optionalIdempotencyKey(newKey())).body();
        List<String> lost = new ArrayList<>();
        body.get("results").forEach(result -> {
            if (!"acked".equals(result.get("outcome").asText())) {
                lost.add(result.get("id").asText());
            }
        });
        return new AckResult(body.get("acked").asInt(), lost);
    }

    /** Gives a claimed delivery back; it is ready again after the clock's backoff, or dead after its last attempt. */
    public Delivery nack(Delivery delivery) {
        return nack(delivery, null);
    }

    /** Gives a claimed delivery back to be ready again after {@code retryAfter} (null: the clock's backoff). */
    public Delivery nack(Delivery delivery, Duration retryAfter) {
        ObjectNode request = claim(delivery);
        if (retryAfter != null) {
            request.put("retryAfter", Json.millis(retryAfter, "retryAfter"));
        }
        return Delivery.of(transport.send(Transport.Call.once("POST", delivery(delivery) + "/nack", request)
                .optionalIdempotencyKey(newKey()).inTrace(delivery.traceparent())).body());
    }

    /** Ends the delivery's lease {@code lease} (1 s to 12 h) from the clock's now instead. */
    public Delivery extend(Delivery delivery, Duration lease) {
        ObjectNode request = claim(delivery).put("lease", Json.millis(lease, "lease"));
        return Delivery.of(transport.send(Transport.Call.repeatable("POST", delivery(delivery) + "/extend", request)
                .optionalIdempotencyKey(newKey()).inTrace(delivery.traceparent())).body());
    }

    /** The clock's deliveries by state (refused with 409 {@code clock_not_queued} on a clock that does not queue). */
    public DeliveryCounts deliveries() {
        return DeliveryCounts.of(transport.send(Transport.Call.get(path + "/deliveries")).body());
    }

    /** Every dead delivery in sequence order, read page by page. */
    public List<Delivery> deadDeliveries() {
        List<Delivery> dead = new ArrayList<>();
        String query = "?limit=1000";
        while (true) {
            JsonNode body = transport.send(Transport.Call.get(path + "/deliveries/dead" + query)).body();
            dead.addAll(deliveries(body));
            JsonNode next = body.get("next");
            if (next == null || next.isNull()) {
                return dead;
            }
            query = "?limit=1000&after=" + next.asLong();
        }
    }

    /** Makes every dead delivery of {@code id} ready again from attempt 1; answers them. */
    public List<Delivery> redrive(String id) {
        return deliveries(transport.send(Transport.Call.once("POST", path + "/deliveries/dead/"
                + Transport.segment(id) + "/redrive", null)).body());
    }

    /** Deletes every dead delivery of {@code id}. */
    public void deleteDead(String id) {
        transport.send(Transport.Call.once("DELETE", path + "/deliveries/dead/" + Transport.segment(id), null));
    }

    // --- flow control: single keys --------------------------------------------------------------------------------

    /**
     * Gives {@code key} its own limits in place of the clock's per-key {@link FlowControl} ones (a member left null
     * keeps the clock's); answers whether the key had none before (else they are replaced). Refused with 400
     * {@code invalid_request} on a clock without flow control, 429 {@code flow_key_limit} past 1,000 keys.
     */
    public boolean setKeyLimits(String key, KeyLimits limits) {
        return transport.send(Transport.Call.repeatable("PUT", flowKey(key), limits.json())).status() == 201;
    }

    /** {@code key}'s own limits, or empty when it has none. */
    public Optional<KeyLimits> keyLimits(String key) {
        return transport.find(Transport.Call.get(flowKey(key)), "flow_key_not_found").map(KeyLimits::of);
    }

    /** Deletes {@code key}'s own limits: the clock's apply to it again. 404 {@code flow_key_not_found} if none. */
    public void deleteKeyLimits(String key) {
        transport.send(Transport.Call.once("DELETE", flowKey(key), null));
    }

    /** The {@code n} (1 to 100) keys holding the most deliveries, ready and in flight, with their limits. */
    public List<KeyState> busiestKeys(int n) {
        List<KeyState> keys = new ArrayList<>();
        transport.send(Transport.Call.get(path + "/flow/keys?busiest=" + n)).body().get("keys")
                .forEach(node -> keys.add(KeyState.of(node)));
        return keys;
    }

    private String flowKey(String key) {
        return path + "/flow/keys/" + Transport.segment(key);
    }

    // --- shared with the batch ------------------------------------------------------------------------------------

    /** An add's body: {@code when} is {@code delay} (milliseconds from now) or {@code at} (a clock time). */
    static ObjectNode addition(String id, String when, long millis, int priority, String payloadJson) {
        ObjectNode request = Json.object().put("id", id).put(when, millis);
        if (priority != 0) {
            request.put("priority", priority);
        }
        Json.putPayload(request, payloadJson);
        return request;
    }

    List<BatchResult> commit(ArrayNode ops) {
        JsonNode body = transport.send(Transport.Call.once("POST", path + "/batch", Json.object().set("ops", ops)))
                .body();
        List<BatchResult> results = new ArrayList<>();
        body.get("results").forEach(node -> results.add(BatchResult.of(node)));
        return results;
    }

    private List<Timer> timers(String query) {
        List<Timer> timers = new ArrayList<>();
        transport.send(Transport.Call.get(path + "/timers" + query)).body().get("timers")
                .forEach(node -> timers.add(Timer.of(node)));
        return timers;
    }

    private static List<Delivery> deliveries(JsonNode body) {
        List<Delivery> deliveries = new ArrayList<>();
        body.get("deliveries").forEach(node -> deliveries.add(Delivery.of(node)));
        return deliveries;
    }

    private String timer(String id) {
        return path + "/timers/" + Transport.segment(id);
    }

    private String delivery(Delivery delivery) {
        return path + "/deliveries/" + Transport.segment(delivery.id());
    }

    private static ObjectNode claim(Delivery delivery) {
        if (delivery.claim() == null) {
            throw new IllegalArgumentException("delivery " + delivery.id() + " (sequence " + delivery.sequence()
                    + ") is not claimed");
        }
        return Json.object().put("claim", delivery.claim());
    }

    @Override
    public String toString() {
        return "ClockClient[" + transport.base() + path + "]";
    }
}
