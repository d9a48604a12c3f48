package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.CRC32C;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.Mutation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clock numbers are longs end to end: a clock numbered past 2^31 survives journal replay and snapshot recovery, and
 * numbering goes on after it; a snapshot of format version 5 (numbers as u32) still reads, a number that an older
 * version wrapped to a negative int included.
 */
class ClockNumbersJournalTest {

    private static final long PAST_INT = 3_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void aClockNumberedPast2To31_survivesJournalAndSnapshotRecovery_andNumberingGoesOn() throws IOException {
        writeVersion5Snapshot(PAST_INT);
        ClockRegistry first = fresh();
        try (JournalStore store = open(first)) {
            assertThat(first.get("old").number()).isEqualTo(7);
            assertThat(first.scheduler("old").now()).isEqualTo(10);
            ClockRegistry.Clock big = first.create("big", 0).clock();
            assertThat(big.number()).isEqualTo(PAST_INT);
            big.scheduler().add("t", 5, 0, "{\"n\":1}", Trace.NONE);
        }

        ClockRegistry replayed = fresh();
        try (JournalStore store = open(replayed)) {
            assertThat(replayed.get("big").number()).isEqualTo(PAST_INT);
            assertThat(replayed.scheduler("big").get("t").payload()).isEqualTo("{\"n\":1}");
            replayed.snapshotNow();
            store.writer().awaitSnapshotIdle();
        }

        ClockRegistry fromSnapshot = fresh();
        try (JournalStore store = open(fromSnapshot)) {
            assertThat(fromSnapshot.get("big").number()).isEqualTo(PAST_INT);
            assertThat(fromSnapshot.get("old").number()).isEqualTo(7);
            assertThat(fromSnapshot.scheduler("big").firstN(10).timers()).extracting(Timer::id).containsExactly("t");
            assertThat(fromSnapshot.create("next", 0).clock().number()).isEqualTo(PAST_INT + 1);
        }
    }

    @Test
    void aVersion5Snapshot_stillReads_withItsNumbersAsU32() throws IOException {
        writeVersion5Snapshot(8);
        var clocks = SnapshotFile.readClocks(JournalFiles.snapshot(dir, 1));
        assertThat(clocks.nextNumber()).isEqualTo(8);
        assertThat(clocks.clocks()).singleElement().satisfies(clock -> {
            assertThat(clock.number()).isEqualTo(7);
            assertThat(clock.name()).isEqualTo("old");
            assertThat(clock.state().now()).isEqualTo(10);
            assertThat(clock.state().firedThrough()).isEqualTo(10);
        });
    }

    /**
     * A snapshot as format version 5 wrote it, for segment 1: an empty default clock and the empty virtual clock
     * {@code old} numbered 7 at time 10, and {@code nextNumber} as the u32 that version wrote (wrapped when over
     * 2^31 - 1).
     */
    private void writeVersion5Snapshot(long nextNumber) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.write(JournalFiles.SNAPSHOT_MAGIC);
        out.writeInt(5);
        out.writeLong(1);
        writeEmptyVersion5Clock(out, 0);
        out.writeLong(0);                   // sequence floor
        out.writeInt((int) nextNumber);
        out.writeInt(1);
        out.writeInt(7);
        byte[] name = "old".getBytes(StandardCharsets.UTF_8);
        out.writeInt(name.length);
        out.write(name);
        out.writeLong(10);                  // initial now
        out.writeLong(1_700_000_000_000L);  // created at
        writeEmptyVersion5Clock(out, 10);
        out.flush();
        CRC32C crc = new CRC32C();
        crc.update(bytes.toByteArray());
        out.writeInt((int) crc.getValue());
        Files.write(JournalFiles.snapshot(dir, 1), bytes.toByteArray());
    }

    private static void writeEmptyVersion5Clock(DataOutputStream out, long now) throws IOException {
        out.writeLong(now);
        out.writeLong(0);                   // last sequence
        out.writeLong(0);                   // reserved sequences
        out.writeInt(0);                    // timers
        GrowableBuffer settings = RecordCodec.encode(new Mutation.ClockConfigured(ClockSettings.VIRTUAL),
                new GrowableBuffer(64));
        out.write(settings.array(), 0, settings.length());
        out.writeInt(0);                    // deliveries
        out.writeInt(0);                    // recent acks
    }

    private static ClockRegistry fresh() {
        return ClockRegistry.withVirtualClocks(4, 10_000, Long.MAX_VALUE, 100);
    }

    private JournalStore open(ClockRegistry clocks) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, Long.MAX_VALUE,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }
}
