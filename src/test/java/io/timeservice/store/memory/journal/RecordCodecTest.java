package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScaledTime;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.RecoveredSnapshot;
import io.timeservice.store.memory.SavedDelivery;
import io.timeservice.store.memory.ScheduleImage;
import org.junit.jupiter.api.Test;

class RecordCodecTest {

    @Test
    void everyMutationKind_roundTripsThroughAFrame() {
        List<Mutation> mutations = List.of(
                new Mutation.Added(new Timer("job_47", 15, -3, 3, 1, 4, "{\"any\":\"json ü €\"}"), 1_700_000_000_000L),
                new Mutation.Added(new Timer("a:b~c.d-e_f", Long.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, 7, 0,
                        null), 0),
                new Mutation.Cancelled("job_47", 3),
                new Mutation.Edited("x", 9, 1_000_000_000_000_000L, Integer.MAX_VALUE, 12),
                new Mutation.Advanced(123_456_789L),
                new Mutation.Reset(),
                new Mutation.AdvancedFiring(77, 1000),
                new Mutation.ClockCreated(3, "ci-1", 5000, 1_700_000_000_000L, 2_000_000),
                new Mutation.ClockForked(4, "ci-1-variant", 3, 1_700_000_000_001L, 2_000_017, 86_400_000),
                new Mutation.ClockLoaded(6, "loaded", 1_700_000_000_002L, new RecoveredSnapshot(2030, 17, 17,
                        List.of(new Mutation.Added(new Timer("t", 5000, -1, 12, 2, 100, "{\"n\":1}"), 1_700_000_000_000L),
                                new Mutation.Added(new Timer("u", 6000, 0, 13, 1, 0, null), 0)),
                        new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                                new RetryPolicy(3, 1000, 2.0, 300_000, 0)),
                        List.of(new SavedDelivery(new Delivery("d", 1000, 0, 11, null, 2, Delivery.State.WAITING, null,
                                        0, 4000, 1000, null), 0),
                                new SavedDelivery(new Delivery("e", 900, 3, 10, "[1]", 3, Delivery.State.DEAD, null, 0,
                                        0, 950, "nacked on attempt 3 of 3"), 0)),
                        List.of(), 1999)),
                new Mutation.ClockLoaded(1L << 40, "empty", 0, new RecoveredSnapshot(0, 0, 0, List.of(),
                        ClockSettings.VIRTUAL, List.of(), List.of(), 0)),
                loadedWithSchedules(),
                new Mutation.OnClock(3, new Mutation.Cancelled("job_47", 3)),
                new Mutation.OnClock(Integer.MAX_VALUE, new Mutation.AdvancedFiring(5, 2)),
                new Mutation.OnClock(3, new Mutation.ClockDeleted()),
                new Mutation.Batch(List.of(
                        new Mutation.Added(new Timer("b", 5, 1, 8, 1, 2, "[1]"), 1_700_000_000_000L),
                        new Mutation.Edited("b", 8, 9, 0, 2),
                        new Mutation.Cancelled("b", 8))),
                new Mutation.OnClock(4, new Mutation.Batch(List.of(new Mutation.Cancelled("z", 1)))),
                new Mutation.ClockCreated(5, "real", 0, 1_700_000_000_000L, 9, new ClockSettings(
                        ClockSettings.Mode.SYSTEM, ClockSettings.DeliveryMode.QUEUE,
                        new RetryPolicy(7, 250, 1.5, 60_000, 0.25))),
                new Mutation.ClockConfigured(ClockSettings.SYSTEM),
                new Mutation.ClockConfigured(ClockSettings.SYSTEM.withDedupeWindow(3_600_000)),
                new Mutation.OnClock(5, new Mutation.DeliveriesSettled(1_700_000_000_123L)),
                new Mutation.OnClock(5, new Mutation.Claimed(42, 30_000, List.of("abc.0", "abc.1"))),
                new Mutation.Acked("abc.0"),
                new Mutation.OnClock(5, new Mutation.AckedAll(List.of("abc.3", "abc.4"))),
                new Mutation.OnClock(5, new Mutation.Nacked("abc.1", 50, 1_050)),
                new Mutation.Extended("abc.2", 60, 43_200_000),
                new Mutation.OnClock(5, new Mutation.Rejected("abc.5", "the target answered 410 Gone on attempt 1")),
                new Mutation.ClockCreated(6, "hooks", 0, 1_700_000_000_000L, 9, new ClockSettings(
                        ClockSettings.Mode.SYSTEM, ClockSettings.DeliveryMode.PUSH, RetryPolicy.DEFAULT, null,
                        new io.timeservice.model.PushTarget("https://hooks.example.com/t", 100, 1_000,
                                java.util.Map.of("X-A", "1"), List.of("whsec_AAAA", "s2")))),
                new Mutation.ClockConfigured(new ClockSettings(ClockSettings.Mode.VIRTUAL,
                        ClockSettings.DeliveryMode.PUSH, RetryPolicy.DEFAULT, null, new io.timeservice.model.PushTarget(
                        "http://[2001:db8::1]:8080/", 60_000, 1, java.util.Map.of(), List.of()))),
                new Mutation.OnClock(5, new Mutation.Redriven(70, List.of(3L, Long.MAX_VALUE))),
                new Mutation.DeadDeleted(List.of(4L)),
                new Mutation.OnClock(5, new Mutation.LeasesRenewed(80)),
                new Mutation.Passed(Long.MAX_VALUE),
                new Mutation.ReservationReleased("order-1"),
                new Mutation.Replaced("order-2", 12, 500, 3, 2, null),
                new Mutation.Replaced("order-3", 13, 0, -1, 9, "{\"x\":[1]}"),
                new Mutation.OnClock(5, new Mutation.Passed(90)),
                new Mutation.OnClock(0xFFFF_FFFFL, new Mutation.Reset()),
                new Mutation.OnClock(3_000_000_000L, new Mutation.Cancelled("job_47", 3)),
                new Mutation.OnClock(Long.MAX_VALUE, new Mutation.ClockDeleted()),
                new Mutation.ClockCreated(1L << 40, "wide", 0, 1_700_000_000_000L, 9, ClockSettings.VIRTUAL),
                new Mutation.ClockCreated(6, "soak", 1_000, 1_700_000_000_000L, 9, ClockSettings.of(
                        ClockSettings.Mode.SCALED, null, null, new ClockRate(60_500_000))),
                new Mutation.OnClock(6, new Mutation.RateChanged(new ScaledTime(1_700_000_000_999L, Long.MAX_VALUE,
                        new ClockRate(0)))),
                new Mutation.OnClock(1L << 40, new Mutation.RateChanged(new ScaledTime(-5, 0,
                        new ClockRate(ClockRate.MAX * 1_000_000)))));
        for (Mutation mutation : mutations) {
            GrowableBuffer buffer = RecordCodec.encode(mutation, new GrowableBuffer(4));
            ByteBuffer frame = ByteBuffer.wrap(buffer.array(), 0, buffer.length());
            int length = frame.getInt();
            int crc = frame.getInt();
            assertThat(length).isEqualTo(buffer.length() - RecordCodec.FRAME_HEADER_BYTES);
            assertThat(crc).isEqualTo(RecordCodec.crc32c(buffer.array(), RecordCodec.FRAME_HEADER_BYTES, length));
            assertThat(RecordCodec.decode(frame.slice())).isEqualTo(mutation);
        }
    }

    /** A loaded clock with a scheduled and a triggered occurrence pending and a delivery of an occurrence. */
    private static Mutation.ClockLoaded loadedWithSchedules() {
        Schedule nightly = new Schedule("nightly", new ScheduleSpec("30 2 * * *", null, "Europe/Berlin", null, null, 9L,
                -1, "{\"job\":1}", ScheduleSpec.CatchUp.LATEST, false), 90_000L, 3, 1, 1, 5_000, 4);
        Schedule done = new Schedule("done", new ScheduleSpec(null, 1_000L, null, 0L, 10_000L, null, 0, null,
                ScheduleSpec.CatchUp.ALL, true), null, 10, 1, 0, Long.MIN_VALUE, 1);
        return new Mutation.ClockLoaded(7, "scheduled", 1_700_000_000_003L, new RecoveredSnapshot(20_000, 5, 5,
                List.of(new Mutation.Added(new Timer("nightly:90000", 90_000, -1, 3, 1, 100, "{\"job\":1}"), 0),
                        new Mutation.Added(new Timer("nightly:20000", 20_000, -1, 4, 1, 20_000, "{\"job\":1}"), 0)),
                QUEUE, List.of(new SavedDelivery(new Delivery("nightly:5000", 5_000, -1, 2, null, 1,
                        Delivery.State.READY, null, 0, 0, 5_000, null, "nightly"), 0)), List.of(), 20_000, null,
                new ScheduleImage(List.of(done, nightly), Map.of("nightly:20000", "nightly"))));
    }

    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 1000, 2.0, 300_000, 0));

    /** Record 38 as format versions before 13 wrote it: the deliveries last, no schedule section after them. */
    @Test
    void aLoadedClocksRecordOfAnEarlierVersion_readsAsAClockWithoutSchedules() {
        Mutation.ClockLoaded loaded = new Mutation.ClockLoaded(6, "loaded", 1_700_000_000_002L, new RecoveredSnapshot(
                2030, 17, 17, List.of(new Mutation.Added(new Timer("t", 5000, -1, 12, 2, 100, "{\"n\":1}"), 0)),
                QUEUE, List.of(new SavedDelivery(new Delivery("d", 1000, 0, 11, null, 2, Delivery.State.WAITING, null,
                        0, 4000, 1000, null), 0)), List.of(), 1999));
        GrowableBuffer buffer = RecordCodec.encode(loaded, new GrowableBuffer(4));
        int sectionBytes = 3 * Integer.BYTES; // no schedules, no triggered occurrences, no deliveries of one
        ByteBuffer body = ByteBuffer.wrap(buffer.array(), RecordCodec.FRAME_HEADER_BYTES,
                buffer.length() - RecordCodec.FRAME_HEADER_BYTES - sectionBytes).slice();
        ByteBuffer section = ByteBuffer.wrap(buffer.array(), buffer.length() - sectionBytes, sectionBytes);
        assertThat(section.getInt()).isZero();
        assertThat(section.getInt()).isZero();
        assertThat(section.getInt()).isZero();
        Mutation.ClockLoaded old = (Mutation.ClockLoaded) RecordCodec.decode(body);
        assertThat(old).isEqualTo(loaded);
        assertThat(old.snapshot().schedules()).isEqualTo(ScheduleImage.EMPTY);
    }

    @Test
    void aClockCreatedBeforeSettings_readsAsAVirtualClockAnsweringAdvances() {
        byte[] name = "ci".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(1 + 4 + 8 + 8 + 8 + 4 + name.length).put((byte) 7).putInt(2).putLong(5)
                .putLong(6).putLong(7).putInt(name.length).put(name).flip();
        assertThat(RecordCodec.decode(body)).isEqualTo(new Mutation.ClockCreated(2, "ci", 5, 6, 7,
                ClockSettings.VIRTUAL));
    }

    @Test
    void aForkRecordOfAnEarlierVersion_readsWithoutTheSourcesTime() {
        byte[] name = "variant".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(1 + 4 * 8 + 4 + name.length).put((byte) 27).putLong(4).putLong(3)
                .putLong(1_700_000_000_001L).putLong(2_000_017).putInt(name.length).put(name).flip();
        assertThat(RecordCodec.decode(body)).isEqualTo(new Mutation.ClockForked(4, "variant", 3, 1_700_000_000_001L,
                2_000_017, Mutation.ClockForked.UNKNOWN_TIME));
    }

    @Test
    void aClocksRecordOfAnEarlierVersion_readsItsNumberAsAnUnsignedU32() {
        ByteBuffer small = ByteBuffer.allocate(1 + 4 + 1).put((byte) 8).putInt(7).put((byte) 5).flip();
        assertThat(RecordCodec.decode(small)).isEqualTo(new Mutation.OnClock(7, new Mutation.Reset()));
        // a version that numbered past 2^31 - 1 wrote the int it wrapped to
        ByteBuffer wrapped = ByteBuffer.allocate(1 + 4 + 1).put((byte) 8).putInt((int) 3_000_000_000L).put((byte) 5)
                .flip();
        assertThat(RecordCodec.decode(wrapped)).isEqualTo(new Mutation.OnClock(3_000_000_000L, new Mutation.Reset()));
    }

    @Test
    void everyDeliveryState_roundTripsThroughASnapshotFrame() {
        for (Delivery.State state : Delivery.State.values()) {
            boolean inFlight = state == Delivery.State.IN_FLIGHT;
            SavedDelivery saved = new SavedDelivery(new Delivery("job", 10, -2, 77, state == Delivery.State.DEAD
                    ? null : "{\"a\":1}", 3, state, inFlight ? "claim.0" : null, inFlight ? 99 : 0,
                    state == Delivery.State.WAITING ? 120 : 0, 11, state == Delivery.State.DEAD ? "nacked" : null),
                    inFlight ? 30_000 : 0);
            GrowableBuffer buffer = RecordCodec.encode(saved, new GrowableBuffer(8));
            assertThat(RecordCodec.decodeDelivery(ByteBuffer.wrap(buffer.array(), RecordCodec.FRAME_HEADER_BYTES,
                    buffer.length() - RecordCodec.FRAME_HEADER_BYTES).slice())).isEqualTo(saved);
        }
    }

    @Test
    void batchRecords_holdOnlyAddsEditsAndCancels() {
        for (Mutation part : List.<Mutation>of(new Mutation.Advanced(1), new Mutation.Reset(),
                new Mutation.SequencesReserved(5), new Mutation.OnClock(2, new Mutation.Cancelled("a", 1)),
                new Mutation.Batch(List.of(new Mutation.Cancelled("a", 1))))) {
            assertThatThrownBy(() -> RecordCodec.encode(new Mutation.Batch(List.of(part)), new GrowableBuffer(8)))
                    .as(part.toString()).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> RecordCodec.encode(new Mutation.Batch(List.of()), new GrowableBuffer(8)))
                .isInstanceOf(IllegalArgumentException.class);
        // a batch (type 11) of one advanced record (type 4): refused on reading too
        ByteBuffer body = ByteBuffer.allocate(14).put((byte) 11).putInt(1).put((byte) 4).putLong(7).flip();
        assertThatThrownBy(() -> RecordCodec.decode(body)).isInstanceOf(RecordCodec.CorruptRecordException.class)
                .hasMessageContaining("a batch holds");
        ByteBuffer empty = ByteBuffer.allocate(5).put((byte) 11).putInt(0).flip();
        assertThatThrownBy(() -> RecordCodec.decode(empty)).isInstanceOf(RecordCodec.CorruptRecordException.class);
    }

    @Test
    void largestBatchTheServiceAccepts_fitsOneRecord() {
        // 1,000 adds whose payloads came in one body of at most MAX_PAYLOAD_BYTES, written back twice as long
        List<Mutation> adds = new java.util.ArrayList<>();
        String payload = "\"" + "x".repeat(2 * JournalWriter.MAX_PAYLOAD_BYTES / RecordCodec.MAX_BATCH_PARTS - 2)
                + "\"";
        for (int i = 0; i < RecordCodec.MAX_BATCH_PARTS; i++) {
            adds.add(new Mutation.Added(new Timer(String.format("%0128d", i), Long.MAX_VALUE, Integer.MIN_VALUE,
                    Long.MAX_VALUE, Timer.MAX_VERSION, Long.MAX_VALUE, payload), Long.MAX_VALUE));
        }
        GrowableBuffer buffer = RecordCodec.encode(new Mutation.Batch(adds), new GrowableBuffer(64));
        assertThat(buffer.length() - RecordCodec.FRAME_HEADER_BYTES).isLessThanOrEqualTo(RecordCodec.MAX_BODY_BYTES);
        assertThat(RecordCodec.decode(ByteBuffer.wrap(buffer.array(), RecordCodec.FRAME_HEADER_BYTES,
                buffer.length() - RecordCodec.FRAME_HEADER_BYTES).slice())).isEqualTo(new Mutation.Batch(adds));
    }

    @Test
    void framesAppendBackToBack_inOneBuffer() {
        GrowableBuffer buffer = new GrowableBuffer(8);
        RecordCodec.encode(new Mutation.Advanced(1), buffer);
        int first = buffer.length();
        RecordCodec.encode(new Mutation.Advanced(2), buffer);
        ByteBuffer second = ByteBuffer.wrap(buffer.array(), first + RecordCodec.FRAME_HEADER_BYTES,
                buffer.length() - first - RecordCodec.FRAME_HEADER_BYTES);
        assertThat(RecordCodec.decode(second.slice())).isEqualTo(new Mutation.Advanced(2));
    }

    @Test
    void largestPayloadTheServiceAccepts_withTheLongestId_fitsOneRecord() {
        // max-payload-bytes < max-body-bytes <= JournalWriter.MAX_PAYLOAD_BYTES (TimeServicePropertiesTest)
        String payload = "\"" + "x".repeat(JournalWriter.MAX_PAYLOAD_BYTES - 3) + "\"";
        Mutation added = new Mutation.Added(new Timer("i".repeat(128), Long.MAX_VALUE, Integer.MIN_VALUE,
                Long.MAX_VALUE, Timer.MAX_VERSION, Long.MAX_VALUE, payload), Long.MAX_VALUE);
        GrowableBuffer buffer = RecordCodec.encode(added, new GrowableBuffer(64));
        assertThat(buffer.length() - RecordCodec.FRAME_HEADER_BYTES).isLessThanOrEqualTo(RecordCodec.MAX_BODY_BYTES);
        assertThat(RecordCodec.decode(ByteBuffer.wrap(buffer.array(), RecordCodec.FRAME_HEADER_BYTES,
                buffer.length() - RecordCodec.FRAME_HEADER_BYTES).slice())).isEqualTo(added);
    }

    @Test
    void recordOverTheLimit_isRefusedWhenEncoded() {
        String payload = "x".repeat(RecordCodec.MAX_BODY_BYTES);
        Mutation added = new Mutation.Added(new Timer("a", 1, 0, 1, 1, 0, payload), 0);
        assertThatThrownBy(() -> RecordCodec.encode(added, new GrowableBuffer(64)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the journal's limit of " + RecordCodec.MAX_BODY_BYTES);
    }

    @Test
    void sequenceReservation_roundTrips() {
        GrowableBuffer buffer = RecordCodec.encode(new Mutation.SequencesReserved(1_000_000), new GrowableBuffer(4));
        assertThat(RecordCodec.decode(ByteBuffer.wrap(buffer.array(), RecordCodec.FRAME_HEADER_BYTES,
                buffer.length() - RecordCodec.FRAME_HEADER_BYTES).slice()))
                .isEqualTo(new Mutation.SequencesReserved(1_000_000));
    }

    @Test
    void buffer_growsByDoublingUpToItsCap_andRefusesBeyondItUnchanged() {
        GrowableBuffer buffer = new GrowableBuffer(16, 40);
        buffer.putBytes(new byte[17], 0, 17);
        assertThat(buffer.array()).hasSize(32);
        buffer.putBytes(new byte[20], 0, 20);
        assertThat(buffer.array()).hasSize(40); // capped, not doubled to 64
        assertThatThrownBy(() -> buffer.putBytes(new byte[4], 0, 4))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot take 4 more: the limit is 40");
        assertThat(buffer.length()).isEqualTo(37);
    }

    @Test
    void unknownRecordType_isRefused() {
        assertThatThrownBy(() -> RecordCodec.decode(ByteBuffer.wrap(new byte[] {99})))
                .isInstanceOf(RecordCodec.CorruptRecordException.class)
                .hasMessageContaining("unknown record type 99");
    }

    @Test
    void trailingBytesInABody_areRefused() {
        GrowableBuffer buffer = RecordCodec.encode(new Mutation.Advanced(5), new GrowableBuffer(8));
        buffer.putByte((byte) 0);
        ByteBuffer body = ByteBuffer.wrap(buffer.array(), RecordCodec.FRAME_HEADER_BYTES,
                buffer.length() - RecordCodec.FRAME_HEADER_BYTES);
        assertThatThrownBy(() -> RecordCodec.decode(body.slice()))
                .isInstanceOf(RecordCodec.CorruptRecordException.class)
                .hasMessageContaining("left over");
    }

    @Test
    void aRateChangeOutOfRange_isRefusedWhenRead() {
        GrowableBuffer changed = RecordCodec.encode(new Mutation.RateChanged(new ScaledTime(0, 0, new ClockRate(1))),
                new GrowableBuffer(8));
        ByteBuffer frame = ByteBuffer.wrap(changed.array(), 0, changed.length());
        frame.putLong(RecordCodec.FRAME_HEADER_BYTES + 1 + 16, ClockRate.MAX * 1_000_000 + 1); // the rate's field
        assertThatThrownBy(() -> RecordCodec.decode(frame.position(RecordCodec.FRAME_HEADER_BYTES).slice()))
                .isInstanceOf(RecordCodec.CorruptRecordException.class).hasMessageContaining("rate");
    }

    @Test
    void clockRecordsOutOfPlace_areRefused() {
        assertThatThrownBy(() -> RecordCodec.encode(new Mutation.OnClock(1, new Mutation.OnClock(2,
                new Mutation.Reset())), new GrowableBuffer(8))).isInstanceOf(IllegalArgumentException.class);
        GrowableBuffer deleted = RecordCodec.encode(new Mutation.OnClock(1, new Mutation.ClockDeleted()),
                new GrowableBuffer(8));
        // the same body without its clock tag: a deletion must name its clock
        assertThatThrownBy(() -> RecordCodec.decode(ByteBuffer.wrap(deleted.array(),
                RecordCodec.FRAME_HEADER_BYTES + 5, 1))).isInstanceOf(RecordCodec.CorruptRecordException.class);
    }

    @Test
    void acrossClocksRecords_holdOnlyBatchesOfDistinctClocks_outermost_andNoMoreRecordsThanOneBatch() {
        Mutation.Batch cancel = new Mutation.Batch(List.of(new Mutation.Cancelled("a", 1)));
        List<Mutation> manyCancels = new java.util.ArrayList<>();
        for (int i = 0; i < RecordCodec.MAX_BATCH_PARTS; i++) {
            manyCancels.add(new Mutation.Cancelled("c" + i, i));
        }
        for (Mutation refused : List.<Mutation>of(
                new Mutation.AcrossClocks(List.of()),
                new Mutation.AcrossClocks(List.of(new Mutation.OnClock(1, new Mutation.Reset()))),
                new Mutation.AcrossClocks(List.of(new Mutation.OnClock(1, cancel), new Mutation.OnClock(1, cancel))),
                new Mutation.AcrossClocks(List.of(new Mutation.OnClock(-1, cancel))),
                new Mutation.AcrossClocks(List.of(new Mutation.OnClock(1, cancel),
                        new Mutation.OnClock(2, new Mutation.Batch(manyCancels)))),
                new Mutation.OnClock(3, new Mutation.AcrossClocks(List.of(new Mutation.OnClock(1, cancel)))))) {
            assertThatThrownBy(() -> RecordCodec.encode(refused, new GrowableBuffer(8))).as(refused.toString())
                    .isInstanceOf(IllegalArgumentException.class);
        }
        // an across-clocks record (type 49) of one part, clock 1, holding an advance (type 4): refused on reading too
        ByteBuffer body = ByteBuffer.allocate(22).put((byte) 49).putInt(1).putLong(1).put((byte) 4).putLong(7).flip();
        assertThatThrownBy(() -> RecordCodec.decode(body)).isInstanceOf(RecordCodec.CorruptRecordException.class)
                .hasMessageContaining("a batch across clocks holds");
        ByteBuffer empty = ByteBuffer.allocate(5).put((byte) 49).putInt(0).flip();
        assertThatThrownBy(() -> RecordCodec.decode(empty)).isInstanceOf(RecordCodec.CorruptRecordException.class);
    }
}
