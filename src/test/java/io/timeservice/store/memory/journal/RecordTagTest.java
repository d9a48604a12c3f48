package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRate;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScaledTime;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.RecoveredSnapshot;
import io.timeservice.store.memory.SavedDelivery;
import org.junit.jupiter.api.Test;

/**
 * The table of tags against the codecs of the families: every tag the table lists is written by its family's codec
 * alone (and by no other family's) and read back as it was, a retired tag is still read, and no byte outside the
 * table reads as a record.
 */
class RecordTagTest {

    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 1000, 2.0, 300_000, 0));
    private static final ScheduleSpec EVERY_SECOND = new ScheduleSpec(null, 1_000L, null, 0L, null, 5L, 2, "[1]",
            ScheduleSpec.CatchUp.ALL, false);

    private static final String TRACE_CONTEXT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01;a=b";

    /** A mutation of each tag still written, as written by the codec of the tag's family. */
    private static final Map<RecordTag, Mutation> WRITTEN = new EnumMap<>(RecordTag.class);

    static {
        WRITTEN.put(RecordTag.ADDED, new Mutation.Added(new Timer("a", 5, -1, 3, 1, 2, "{\"n\":1}"),
                1_700_000_000_000L));
        WRITTEN.put(RecordTag.CANCELLED, new Mutation.Cancelled("a", 3));
        WRITTEN.put(RecordTag.EDITED, new Mutation.Edited("a", 3, 9, 4, 2));
        WRITTEN.put(RecordTag.ADVANCED, new Mutation.Advanced(10));
        WRITTEN.put(RecordTag.RESET, new Mutation.Reset());
        WRITTEN.put(RecordTag.SEQUENCES_RESERVED, new Mutation.SequencesReserved(1_000_000));
        WRITTEN.put(RecordTag.ON_CLOCK, new Mutation.OnClock(7, new Mutation.Advanced(11)));
        WRITTEN.put(RecordTag.CLOCK_DELETED, new Mutation.OnClock(7, new Mutation.ClockDeleted()));
        WRITTEN.put(RecordTag.ACROSS_CLOCKS, new Mutation.AcrossClocks(List.of(
                new Mutation.OnClock(0, new Mutation.Batch(List.of(new Mutation.Cancelled("a", 3)))),
                new Mutation.OnClock(1L << 40, new Mutation.Batch(List.of(new Mutation.Edited("b", 4, 9, 0, 2),
                        new Mutation.Replaced("c", 5, 10, 1, 2, "[3]")))))));
        WRITTEN.put(RecordTag.ADVANCED_FIRING, new Mutation.AdvancedFiring(12, 3));
        WRITTEN.put(RecordTag.BATCH, new Mutation.Batch(List.of(new Mutation.Cancelled("a", 3),
                new Mutation.Edited("b", 4, 9, 0, 2))));
        WRITTEN.put(RecordTag.CLOCK_CREATED_WITH_SETTINGS, new Mutation.ClockCreated(7, "q", 0, 1_700_000_000_000L, 9,
                QUEUE));
        WRITTEN.put(RecordTag.DELIVERIES_SETTLED, new Mutation.DeliveriesSettled(13));
        WRITTEN.put(RecordTag.CLAIMED, new Mutation.Claimed(14, 30_000, List.of("c.0", "c.1")));
        WRITTEN.put(RecordTag.ACKED, new Mutation.Acked("c.0"));
        WRITTEN.put(RecordTag.NACKED, new Mutation.Nacked("c.1", 15, 1_015));
        WRITTEN.put(RecordTag.EXTENDED, new Mutation.Extended("c.1", 16, 60_000));
        WRITTEN.put(RecordTag.REDRIVEN, new Mutation.Redriven(17, List.of(3L, 4L)));
        WRITTEN.put(RecordTag.DEAD_DELETED, new Mutation.DeadDeleted(List.of(5L)));
        WRITTEN.put(RecordTag.LEASES_RENEWED, new Mutation.LeasesRenewed(18));
        WRITTEN.put(RecordTag.ACKED_ALL, new Mutation.AckedAll(List.of("c.2", "c.3")));
        WRITTEN.put(RecordTag.PASSED, new Mutation.Passed(19));
        WRITTEN.put(RecordTag.REPLACED, new Mutation.Replaced("r-2", 7, 90, -3, 4, "{\"a\":1}"));
        WRITTEN.put(RecordTag.RESERVATION_RELEASED, new Mutation.OnClock(3, new Mutation.ReservationReleased("r-1")));
        WRITTEN.put(RecordTag.ON_WIDE_CLOCK, new Mutation.OnClock(1L << 40, new Mutation.Passed(20)));
        WRITTEN.put(RecordTag.WIDE_CLOCK_CREATED, new Mutation.ClockCreated(1L << 40, "w", 0, 1_700_000_000_000L, 9,
                ClockSettings.VIRTUAL));
        WRITTEN.put(RecordTag.SCHEDULE_PUT, new Mutation.SchedulePut("s", EVERY_SECOND, 21, 1_700_000_000_000L, 6));
        WRITTEN.put(RecordTag.SCHEDULE_DELETED, new Mutation.ScheduleDeleted("s"));
        WRITTEN.put(RecordTag.SCHEDULE_PAUSED, new Mutation.SchedulePaused("s"));
        WRITTEN.put(RecordTag.SCHEDULE_RESUMED, new Mutation.ScheduleResumed("s", 22, 1_700_000_000_000L, 7));
        WRITTEN.put(RecordTag.SCHEDULE_TRIGGERED, new Mutation.ScheduleTriggered("s", 23, 1_700_000_000_000L, 8));
        WRITTEN.put(RecordTag.SCHEDULED_FIRING, new Mutation.ScheduledFiring(24, 100, 9, 1_700_000_000_000L));
        WRITTEN.put(RecordTag.REJECTED, new Mutation.Rejected("c.4", "the target answered 410 Gone"));
        WRITTEN.put(RecordTag.CLOCK_LOADED, new Mutation.ClockLoaded(8, "l", 1_700_000_000_000L, new RecoveredSnapshot(
                30, 4, 4, List.of(new Mutation.Added(new Timer("t", 40, 0, 4, 1, 0, null), 0)), QUEUE,
                List.of(saved()), List.of(), 30)));
        WRITTEN.put(RecordTag.CLOCK_FORKED_AT, new Mutation.ClockForked(9, "f", 7, 1_700_000_000_000L, 10, 25));
        WRITTEN.put(RecordTag.SCALED_CLOCK_CREATED, new Mutation.ClockCreated(10, "x", 0, 1_700_000_000_000L, 9,
                ClockSettings.of(ClockSettings.Mode.SCALED, null, null, new ClockRate(2_000_000))));
        WRITTEN.put(RecordTag.RATE_CHANGED, new Mutation.OnClock(10, new Mutation.RateChanged(new ScaledTime(
                1_700_000_000_000L, 50, new ClockRate(500_000)))));
        WRITTEN.put(RecordTag.TRACED_ADDED, new Mutation.Added(new Timer("a", 5, -1, 3, 1, 2, "{\"n\":1}", null,
                TRACE_CONTEXT), 1_700_000_000_000L));
        WRITTEN.put(RecordTag.FLOW_CLAIMED, new Mutation.FlowClaimed(25, 30_000, List.of("c.6", "c.7"),
                List.of(9L, 4L)));
        WRITTEN.put(RecordTag.FLOW_KEY_PUT, new Mutation.OnClock(11, new Mutation.FlowKeyChanged("tenant-7",
                new FlowOverride(3, new FlowRate(10, 1_000)), 26)));
        WRITTEN.put(RecordTag.FLOW_KEY_DELETED, new Mutation.OnClock(11, new Mutation.FlowKeyChanged("tenant-7",
                null, 27)));
        WRITTEN.put(RecordTag.CLOCK_CONFIGURED, new Mutation.ClockConfigured(QUEUE.withFlow(new FlowLimits(2, null,
                null, null, null, new java.util.TreeMap<>(Map.of("a", new FlowOverride(null, new FlowRate(1, 5)),
                "b", new FlowOverride(4, null)))))));
        WRITTEN.put(RecordTag.CLOCK_CHANGED, new Mutation.OnClock(12, new Mutation.ClockChanged(QUEUE
                .withRetry(new io.timeservice.model.RetryPolicy(2, 100, 1.0, 100, 0.0, 60_000))
                .withFlow(new FlowLimits(null, null, null, 5, new FlowRate(7, 1_000))).withPaused(true), 28)));
        WRITTEN.put(RecordTag.KEYED_ADDED, new Mutation.Added(new Timer("k", 5, 0, 3, 1, 2, null, null, null,
                "tenant-7"), 1_700_000_000_000L));
        WRITTEN.put(RecordTag.KEYED_TRACED_ADDED, new Mutation.Added(new Timer("kt", 5, 0, 3, 1, 2, "[1]", null,
                TRACE_CONTEXT, "tenant-7"), 1_700_000_000_000L));
    }

    private static SavedDelivery keyedSaved() {
        return new SavedDelivery(new Delivery("d", 20, 0, 3, "[2]", 1, Delivery.State.IN_FLIGHT, "c.5", 30_020, 0,
                20, null, null, null, "partner:acme"), 30_000);
    }


    private static SavedDelivery saved() {
        return new SavedDelivery(new Delivery("d", 20, 0, 3, "[2]", 1, Delivery.State.IN_FLIGHT, "c.5", 30_020, 0,
                20, null), 30_000);
    }

    @Test
    void everyTagOfTheTable_isWrittenByItsFamilyAlone_andReadsBackAsWritten() {
        Set<RecordTag> untested = EnumSet.allOf(RecordTag.class);
        for (Map.Entry<RecordTag, Mutation> entry : WRITTEN.entrySet()) {
            RecordTag tag = entry.getKey();
            Mutation mutation = entry.getValue();
            assertThat(tag.written()).as(tag + " is written").isTrue();
            Mutation own = mutation instanceof Mutation.OnClock on && tag != RecordTag.ON_CLOCK
                    && tag != RecordTag.ON_WIDE_CLOCK ? on.mutation() : mutation;
            for (RecordTag.Family family : RecordTag.Family.values()) {
                GrowableBuffer body = new GrowableBuffer(8);
                assertThat(encodeIn(family, own, body)).as(tag + " written by " + family)
                        .isEqualTo(family == tag.family);
                if (family == tag.family) {
                    assertThat(body.array()[0]).as(tag + "'s tag").isEqualTo(tag.code);
                }
            }
            GrowableBuffer frame = RecordCodec.encode(mutation, new GrowableBuffer(8));
            assertThat(frame.array()[RecordCodec.FRAME_HEADER_BYTES]).as(tag + " as a record's first byte")
                    .isEqualTo(own == mutation ? tag.code : (byte) 8);
            assertThat(RecordCodec.decode(ByteBuffer.wrap(frame.array(), RecordCodec.FRAME_HEADER_BYTES,
                    frame.length() - RecordCodec.FRAME_HEADER_BYTES).slice())).as(tag.toString()).isEqualTo(mutation);
            untested.remove(tag);
        }

        GrowableBuffer snapshotFrame = RecordCodec.encode(saved(), new GrowableBuffer(8));
        assertThat(snapshotFrame.array()[RecordCodec.FRAME_HEADER_BYTES]).isEqualTo(RecordTag.SAVED_DELIVERY.code);
        assertThat(RecordCodec.decodeDelivery(ByteBuffer.wrap(snapshotFrame.array(), RecordCodec.FRAME_HEADER_BYTES,
                snapshotFrame.length() - RecordCodec.FRAME_HEADER_BYTES).slice())).isEqualTo(saved());
        untested.remove(RecordTag.SAVED_DELIVERY);
        SavedDelivery traced = new SavedDelivery(saved().delivery().withTraceContext(TRACE_CONTEXT), 30_000);
        SavedDelivery keyedTraced = new SavedDelivery(keyedSaved().delivery().withTraceContext(TRACE_CONTEXT),
                30_000);
        for (Map.Entry<RecordTag, SavedDelivery> frame : Map.of(RecordTag.TRACED_SAVED_DELIVERY, traced,
                RecordTag.KEYED_SAVED_DELIVERY, keyedSaved(), RecordTag.KEYED_TRACED_SAVED_DELIVERY, keyedTraced)
                .entrySet()) {
            GrowableBuffer written = RecordCodec.encode(frame.getValue(), new GrowableBuffer(8));
            assertThat(written.array()[RecordCodec.FRAME_HEADER_BYTES]).isEqualTo(frame.getKey().code);
            assertThat(RecordCodec.decodeDelivery(ByteBuffer.wrap(written.array(), RecordCodec.FRAME_HEADER_BYTES,
                    written.length() - RecordCodec.FRAME_HEADER_BYTES).slice())).isEqualTo(frame.getValue());
            untested.remove(frame.getKey());
        }

        untested.removeIf(tag -> !tag.written());
        assertThat(untested).as("tags of the table without a round trip here").isEmpty();
    }

    @Test
    void retiredTags_areStillRead() {
        byte[] name = "old".getBytes(StandardCharsets.UTF_8);
        ByteBuffer created = ByteBuffer.allocate(1 + 4 + 3 * 8 + 4 + name.length).put(RecordTag.CLOCK_CREATED.code)
                .putInt(2).putLong(5).putLong(6).putLong(7).putInt(name.length).put(name).flip();
        assertThat(RecordCodec.decode(created)).isEqualTo(new Mutation.ClockCreated(2, "old", 5, 6, 7,
                ClockSettings.VIRTUAL));
        ByteBuffer forked = ByteBuffer.allocate(1 + 4 * 8 + 4 + name.length).put(RecordTag.CLOCK_FORKED.code)
                .putLong(4).putLong(3).putLong(8).putLong(9).putInt(name.length).put(name).flip();
        assertThat(RecordCodec.decode(forked)).isEqualTo(new Mutation.ClockForked(4, "old", 3, 8, 9,
                Mutation.ClockForked.UNKNOWN_TIME));

        assertThat(EnumSet.allOf(RecordTag.class).stream().filter(tag -> !tag.written()))
                .containsExactlyInAnyOrder(RecordTag.CLOCK_CREATED, RecordTag.CLOCK_FORKED);
    }

    @Test
    void theTable_listsEachCodeOnce_inTheFormatsVersions_andNoOtherByteReadsAsARecord() {
        Set<Byte> codes = new java.util.HashSet<>();
        for (RecordTag tag : RecordTag.values()) {
            assertThat(codes.add(tag.code)).as("code " + tag.code + " once").isTrue();
            assertThat(RecordTag.of(tag.code)).isSameAs(tag);
            assertThat(tag.since).as(tag + " since").isBetween(1, JournalFiles.FORMAT_VERSION);
            assertThat(tag.retiredIn == 0 || tag.retiredIn > tag.since).as(tag + " retired after it came").isTrue();
        }
        for (int b = Byte.MIN_VALUE; b <= Byte.MAX_VALUE; b++) {
            if (!codes.contains((byte) b)) {
                ByteBuffer body = ByteBuffer.wrap(new byte[] {(byte) b, 0, 0, 0, 0, 0, 0, 0, 0});
                assertThatThrownBy(() -> RecordCodec.decode(body)).as("byte " + b)
                        .isInstanceOf(RecordCodec.CorruptRecordException.class)
                        .hasMessageContaining("unknown record type " + b);
            }
        }
    }

    private static boolean encodeIn(RecordTag.Family family, Mutation mutation, GrowableBuffer out) {
        return switch (family) {
            case TIMER -> TimerRecords.encode(mutation, out);
            case CLOCK -> ClockRecords.encode(mutation, out);
            case DELIVERY -> DeliveryRecords.encode(mutation, out);
            case SETTINGS -> SettingsRecords.encode(mutation, out);
            case SCHEDULE -> {
                if (!(mutation instanceof Mutation.ScheduleChange change)) {
                    yield false;
                }
                ScheduleRecords.encode(change, out);
                yield true;
            }
        };
    }
}
