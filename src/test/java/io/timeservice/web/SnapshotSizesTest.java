package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.Delivery;
import io.timeservice.model.Limits;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.SnapshotRules;
import io.timeservice.model.SnapshotSizes;
import io.timeservice.model.Timer;
import io.timeservice.model.TraceContext;
import org.junit.jupiter.api.Test;

/**
 * {@link SnapshotSizes}' bounds hold for what {@link SnapshotWriter} writes: a document of items each at its largest
 * (the longest ids, numbers and free text, every optional member, payloads of {@code max-payload-bytes} in 3-byte
 * characters) is no larger than the bound, so the default {@code max-snapshot-bytes} derived from them covers every
 * clock the service can hold; and {@link SnapshotWriter#isLargerThan} agrees with the bytes written.
 */
class SnapshotSizesTest {

    private static final long LONGEST = Long.MIN_VALUE; // 20 characters
    private static final int MAX_PAYLOAD_BYTES = 3 * 1000 + 2;
    private static final int MAX_BODY_BYTES = 4096;
    /** A JSON string of {@link #MAX_PAYLOAD_BYTES} bytes of UTF-8. */
    private static final String PAYLOAD = "\"" + "€".repeat(1000) + "\"";
    private static final String CONTROL = "\u0001";

    @Test
    void aDocumentOfLargestItems_isWithinTheBound_andAPlainTimerTakes105BytesBesideItsId() {
        assertThat(PAYLOAD.getBytes(StandardCharsets.UTF_8)).hasSize(MAX_PAYLOAD_BYTES);
        int items = 3;
        ClockSnapshot largest = new ClockSnapshot("c".repeat(Limits.MAX_CLOCK_NAME_LENGTH), largestSettings(),
                LONGEST, LONGEST, Collections.nCopies(items, largestTimer()), Collections.nCopies(items,
                largestSchedule()), Collections.nCopies(items, largestDelivery()));

        long written = write(largest).length;
        assertThat(written).isLessThanOrEqualTo(SnapshotSizes.largestDocument(items, items, items, MAX_PAYLOAD_BYTES,
                MAX_BODY_BYTES));
        // each kind on its own, against its own bound
        ClockSnapshot empty = snapshot(List.of(), List.of(), List.of());
        long frame = write(empty).length;
        assertThat(write(snapshot(List.of(largestTimer()), List.of(), List.of())).length - frame)
                .isLessThanOrEqualTo(SnapshotSizes.largestTimer(MAX_PAYLOAD_BYTES));
        assertThat(write(snapshot(List.of(), List.of(largestSchedule()), List.of())).length - frame)
                .isLessThanOrEqualTo(SnapshotSizes.largestSchedule(MAX_PAYLOAD_BYTES, MAX_BODY_BYTES));
        assertThat(write(snapshot(List.of(), List.of(), List.of(largestDelivery()))).length - frame)
                .isLessThanOrEqualTo(SnapshotSizes.largestDelivery(MAX_PAYLOAD_BYTES));
        assertThat(write(new ClockSnapshot("c".repeat(Limits.MAX_CLOCK_NAME_LENGTH), largestSettings(), LONGEST,
                LONGEST, List.of(), List.of(), List.of())).length)
                .isLessThanOrEqualTo(SnapshotSizes.CLOCK_FIXED_BYTES + SnapshotSizes.PUSH_BYTES);

        // what docs/API.md quotes: a plain timer at a wall-clock time (13 digits), its sequence in the millions
        Timer plain = new Timer("", 1_765_000_000_000L, 0, 1_000_000, 1, 1_765_000_000_000L, null);
        assertThat(write(snapshot(List.of(plain, plain), List.of(), List.of())).length
                - write(snapshot(List.of(plain), List.of(), List.of())).length).isEqualTo(105);
    }

    @Test
    void isLargerThan_isTrue_exactlyWhenTheDocumentHasMoreBytes() {
        ClockSnapshot snapshot = snapshot(Collections.nCopies(50, largestTimer()), List.of(),
                List.of(largestDelivery()));
        int size = write(snapshot).length;

        assertThat(SnapshotWriter.isLargerThan(snapshot, size)).isFalse();
        assertThat(SnapshotWriter.isLargerThan(snapshot, size - 1)).isTrue();
        assertThat(SnapshotWriter.isLargerThan(snapshot, 1024)).isTrue();
    }

    private static ClockSnapshot snapshot(List<Timer> timers, List<Schedule> schedules, List<Delivery> deliveries) {
        return new ClockSnapshot("c", ClockSettings.VIRTUAL, 0, 1, timers, schedules, deliveries);
    }

    private static Timer largestTimer() {
        return new Timer("t".repeat(Limits.MAX_ID_LENGTH), LONGEST, Integer.MIN_VALUE, LONGEST, LONGEST, LONGEST,
                PAYLOAD, "s".repeat(Limits.MAX_SCHEDULE_ID_LENGTH), LARGEST_TRACE_CONTEXT);
    }

    /** A traceparent and the longest tracestate, each character one JSON escapes. */
    private static final String LARGEST_TRACE_CONTEXT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01;"
            + "\\\"".repeat(TraceContext.MAX_TRACESTATE / 2);

    /** Waiting (so it has a retryAt) and with a dead reason as well: every member a delivery may have. */
    private static Delivery largestDelivery() {
        return new Delivery("d".repeat(Limits.MAX_ID_LENGTH), LONGEST, Integer.MIN_VALUE, LONGEST, PAYLOAD,
                Integer.MIN_VALUE, Delivery.State.WAITING, null, 0, LONGEST, LONGEST,
                CONTROL.repeat(SnapshotRules.MAX_DEAD_REASON_LENGTH), "s".repeat(Limits.MAX_SCHEDULE_ID_LENGTH),
                LARGEST_TRACE_CONTEXT);
    }

    /** A cron and zone that filled a request body, every character escaped. */
    private static Schedule largestSchedule() {
        ScheduleSpec spec = new ScheduleSpec(CONTROL.repeat(MAX_BODY_BYTES / 2), null,
                CONTROL.repeat(MAX_BODY_BYTES / 2), LONGEST, LONGEST, LONGEST, Integer.MIN_VALUE, PAYLOAD,
                ScheduleSpec.CatchUp.LATEST, true);
        return new Schedule("s".repeat(Limits.MAX_SCHEDULE_ID_LENGTH), spec, LONGEST, LONGEST, LONGEST, LONGEST,
                LONGEST + 1, LONGEST);
    }

    private static ClockSettings largestSettings() {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < PushTarget.MAX_HEADERS; i++) {
            headers.put(("x-" + i + "-").repeat(20).substring(0, 64), "\"".repeat(PushTarget.MAX_HEADER_VALUE_LENGTH));
        }
        PushTarget push = new PushTarget("https://example.com/" + "p".repeat(PushTarget.MAX_URL_LENGTH - 20),
                PushTarget.MAX_TIMEOUT_MILLIS, PushTarget.MAX_CONCURRENCY, headers, List.of());
        return new ClockSettings(ClockSettings.Mode.SCALED, ClockSettings.DeliveryMode.PUSH,
                new RetryPolicy(RetryPolicy.MAX_ATTEMPTS, RetryPolicy.MAX_BACKOFF_MILLIS, 1 + 1.0 / 3,
                        RetryPolicy.MAX_BACKOFF_MILLIS, 1.0 / 3), new ClockRate(ClockRate.MAX * 1_000_000 - 1), push);
    }

    private static byte[] write(ClockSnapshot snapshot) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SnapshotWriter.write(snapshot, out);
        return out.toByteArray();
    }
}
