package io.timeservice.web;

import java.io.OutputStream;
import java.math.BigDecimal;
import java.util.Map;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.Delivery;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRate;
import io.timeservice.model.PushTarget;
import io.timeservice.model.Reservation;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.model.TraceContext;
import tools.jackson.core.JsonEncoding;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a {@link ClockSnapshot} as the snapshot document ({@code openapi.yaml}'s {@code Snapshot}) straight to an
 * output stream with Jackson's streaming generator: one timer at a time, so the document is never in memory whole
 * (the generator's buffer goes out as it fills; Tomcat sends it chunked). Payloads are written as the JSON they
 * are. Members a saved clock does not have are left out: a payload that is null, a retryAt except on a waiting
 * delivery, a deadReason except on a dead one, a schedule except on an occurrence (timer or delivery), a schedule's
 * start, end, limit and taken when it has none.
 */
final class SnapshotWriter {

    /** Leaves the response's stream open: the servlet container finishes it. */
    private static final JsonMapper JSON = JsonMapper.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    private SnapshotWriter() {
    }

    /**
     * Whether the document of {@code snapshot} is more than {@code limit} bytes: writes it to no stream but a count,
     * and stops as soon as the count is over. O(document) in time, nothing in memory.
     */
    static boolean isLargerThan(ClockSnapshot snapshot, long limit) {
        try {
            write(snapshot, new OutputStream() {

                private long count;

                @Override
                public void write(int b) {
                    add(1);
                }

                @Override
                public void write(byte[] bytes, int offset, int length) {
                    add(length);
                }

                private void add(long bytes) {
                    count += bytes;
                    if (count > limit) {
                        throw new OverLimit();
                    }
                }
            });
            return false;
        } catch (OverLimit over) {
            return true;
        }
    }

    /** Stops a count that went over its limit; no stack trace, it is a result. */
    private static final class OverLimit extends RuntimeException {

        OverLimit() {
            super(null, null, false, false);
        }
    }

    static void write(ClockSnapshot snapshot, OutputStream out) {
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            json.writeStartObject();
            json.writeNumberProperty("format", ClockSnapshot.FORMAT);
            writeClock(snapshot, json);
            json.writeName("timers");
            json.writeStartArray();
            for (Timer timer : snapshot.timers()) {
                writeTimer(timer, json);
            }
            json.writeEndArray();
            json.writeName("schedules");
            json.writeStartArray();
            for (Schedule schedule : snapshot.schedules()) {
                writeSchedule(schedule, json);
            }
            json.writeEndArray();
            json.writeName("deliveries");
            json.writeStartArray();
            for (Delivery delivery : snapshot.deliveries()) {
                writeDelivery(delivery, json);
            }
            json.writeEndArray();
            if (!snapshot.reservations().isEmpty()) { // an optional member: documents without it read as before
                json.writeName("reservations");
                json.writeStartArray();
                for (Reservation reservation : snapshot.reservations()) {
                    json.writeStartObject();
                    json.writeStringProperty("id", reservation.id());
                    json.writeStringProperty("state", reservation.state().code());
                    json.writeNumberProperty("time", reservation.time());
                    json.writeNumberProperty("sequence", reservation.sequence());
                    json.writeEndObject();
                }
                json.writeEndArray();
            }
            json.writeEndObject();
        }
    }

    private static void writeClock(ClockSnapshot snapshot, JsonGenerator json) {
        ClockSettings settings = snapshot.settings();
        RetryPolicy retry = settings.retry();
        json.writeName("clock");
        json.writeStartObject();
        json.writeStringProperty("name", snapshot.name());
        json.writeStringProperty("mode", ClockResourceController.lowerCase(settings.mode()));
        if (settings.rate() != null) {
            json.writeName("rate");
            json.writeNumber(BigDecimal.valueOf(settings.rate().millionths(), ClockRate.MAX_SCALE).stripTrailingZeros()
                    .toPlainString());
        }
        json.writeStringProperty("delivery", ClockResourceController.lowerCase(settings.delivery()));
        json.writeName("retry");
        json.writeStartObject();
        json.writeNumberProperty("maxAttempts", retry.maxAttempts());
        json.writeNumberProperty("initialBackoff", retry.initialBackoffMillis());
        json.writeNumberProperty("multiplier", retry.multiplier());
        json.writeNumberProperty("maxBackoff", retry.maxBackoffMillis());
        json.writeNumberProperty("jitter", retry.jitter());
        if (retry.maxRetryDurationMillis() != 0) {
            json.writeNumberProperty("maxRetryDuration", retry.maxRetryDurationMillis());
        }
        json.writeEndObject();
        if (settings.push() != null) {
            writePush(settings.push(), json);
        }
        if (settings.dedupes()) {
            json.writeNumberProperty("dedupeWindow", settings.dedupeWindowMillis());
        }
        if (settings.flow() != null) {
            writeFlow(settings.flow(), json);
        }
        json.writeNumberProperty("now", snapshot.now());
        json.writeNumberProperty("nextSequence", snapshot.nextSequence());
        json.writeEndObject();
    }

    /** Flow control as {@code PUT /clocks/{clock}} takes it: {@code flow}, {@code clockConcurrency}, {@code clockRate}. */
    private static void writeFlow(FlowLimits flow, JsonGenerator json) {
        if (flow.concurrency() != null || flow.rate() != null) {
            json.writeName("flow");
            json.writeStartObject();
            if (flow.concurrency() != null) {
                json.writeNumberProperty("concurrency", flow.concurrency());
            }
            if (flow.rate() != null) {
                writeRate("rate", flow.rate(), json);
            }
            if (flow.burst() != null) {
                json.writeNumberProperty("burst", flow.burst());
            }
            json.writeEndObject();
        }
        if (flow.clockConcurrency() != null) {
            json.writeNumberProperty("clockConcurrency", flow.clockConcurrency());
        }
        if (flow.clockRate() != null) {
            writeRate("clockRate", flow.clockRate(), json);
        }
        if (!flow.keys().isEmpty()) {
            json.writeName("flowKeys");
            json.writeStartObject();
            for (Map.Entry<String, FlowOverride> key : flow.keys().entrySet()) {
                json.writeName(key.getKey());
                json.writeStartObject();
                if (key.getValue().concurrency() != null) {
                    json.writeNumberProperty("concurrency", key.getValue().concurrency());
                }
                if (key.getValue().rate() != null) {
                    writeRate("rate", key.getValue().rate(), json);
                }
                json.writeEndObject();
            }
            json.writeEndObject();
        }
    }

    private static void writeRate(String name, FlowRate rate, JsonGenerator json) {
        json.writeName(name);
        json.writeStartObject();
        json.writeNumberProperty("limit", rate.limit());
        json.writeNumberProperty("period", rate.periodMillis());
        json.writeEndObject();
    }

    /** As {@code GET /clocks/{clock}} shows it: the secrets are write-only, so a document holds only their number. */
    private static void writePush(PushTarget push, JsonGenerator json) {
        json.writeName("push");
        json.writeStartObject();
        json.writeStringProperty("url", push.url());
        json.writeNumberProperty("timeout", push.timeoutMillis());
        json.writeNumberProperty("concurrency", push.concurrency());
        json.writeName("headers");
        json.writeStartObject();
        for (Map.Entry<String, String> header : push.headers().entrySet()) {
            json.writeStringProperty(header.getKey(), header.getValue());
        }
        json.writeEndObject();
        json.writeNumberProperty("secretsCount", push.secrets().size());
        json.writeEndObject();
    }

    private static void writeTimer(Timer timer, JsonGenerator json) {
        json.writeStartObject();
        json.writeStringProperty("id", timer.id());
        json.writeNumberProperty("fireTime", timer.fireTime());
        json.writeNumberProperty("priority", timer.priority());
        json.writeNumberProperty("sequence", timer.sequence());
        json.writeNumberProperty("version", timer.version());
        json.writeNumberProperty("createdAt", timer.createdAt());
        if (timer.schedule() != null) {
            json.writeStringProperty("schedule", timer.schedule());
        }
        if (timer.key() != null) {
            json.writeStringProperty("key", timer.key());
        }
        writePayload(timer.payload(), json);
        writeTraceContext(timer.traceContext(), json);
        json.writeEndObject();
    }

    /**
     * The spec as {@code GET /clocks/{clock}/schedules/{id}} shows it, then what firing has done: {@code next} (null
     * once none is left), the counts, {@code taken} (left out before the first occurrence fired or skipped), the
     * state and the version.
     */
    private static void writeSchedule(Schedule schedule, JsonGenerator json) {
        ScheduleSpec spec = schedule.spec();
        json.writeStartObject();
        json.writeStringProperty("id", schedule.id());
        if (spec.cron() != null) {
            json.writeStringProperty("cron", spec.cron());
            json.writeStringProperty("zone", spec.zoneOrUtc());
        } else {
            json.writeNumberProperty("every", spec.every());
        }
        writeOptional("start", spec.start(), json);
        writeOptional("end", spec.end(), json);
        writeOptional("limit", spec.limit(), json);
        json.writeNumberProperty("priority", spec.priority());
        writePayload(spec.payload(), json);
        json.writeStringProperty("catchUp", spec.catchUp().wire());
        json.writeBooleanProperty("paused", spec.paused());
        writeTraceContext(spec.traceContext(), json);
        if (spec.key() != null) {
            json.writeStringProperty("key", spec.key());
        }
        json.writeName("next");
        if (schedule.next() == null) {
            json.writeNull();
        } else {
            json.writeNumber(schedule.next());
        }
        json.writeNumberProperty("fired", schedule.fired());
        json.writeNumberProperty("skipped", schedule.skipped());
        json.writeNumberProperty("triggered", schedule.triggered());
        if (schedule.taken() != Long.MIN_VALUE) {
            json.writeNumberProperty("taken", schedule.taken());
        }
        json.writeStringProperty("state", schedule.state().wire());
        json.writeNumberProperty("version", schedule.version());
        json.writeEndObject();
    }

    private static void writeOptional(String name, Long value, JsonGenerator json) {
        if (value != null) {
            json.writeNumberProperty(name, value);
        }
    }

    private static void writeDelivery(Delivery delivery, JsonGenerator json) {
        json.writeStartObject();
        json.writeStringProperty("id", delivery.id());
        json.writeNumberProperty("fireTime", delivery.fireTime());
        json.writeNumberProperty("priority", delivery.priority());
        json.writeNumberProperty("sequence", delivery.sequence());
        json.writeNumberProperty("attempt", delivery.attempt());
        json.writeStringProperty("state", ClockResourceController.lowerCase(delivery.state()));
        json.writeNumberProperty("readyAt", delivery.readyAt());
        if (delivery.state() == Delivery.State.WAITING) {
            json.writeNumberProperty("retryAt", delivery.retryAt());
        }
        if (delivery.deadReason() != null) {
            json.writeStringProperty("deadReason", delivery.deadReason());
        }
        if (delivery.schedule() != null) {
            json.writeStringProperty("schedule", delivery.schedule());
        }
        if (delivery.key() != null) {
            json.writeStringProperty("key", delivery.key());
        }
        writePayload(delivery.payload(), json);
        writeTraceContext(delivery.traceContext(), json);
        json.writeEndObject();
    }

    /** The optional members {@code traceparent} and {@code tracestate} (issue 46). */
    private static void writeTraceContext(String context, JsonGenerator json) {
        if (context != null) {
            json.writeStringProperty("traceparent", TraceContext.traceparent(context));
            String state = TraceContext.tracestate(context);
            if (state != null) {
                json.writeStringProperty("tracestate", state);
            }
        }
    }

    private static void writePayload(String payload, JsonGenerator json) {
        if (payload != null) {
            json.writeName("payload");
            json.writeRawValue(payload);
        }
    }
}
