package io.timeservice.store.memory.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Names and headers of the files in a data directory:
 * <pre>
 *   journal-00000000000000000007.log   a segment: header, then batch frames (version 2) or record frames (1)
 *   journal-....log.tmp                a segment being created (ignored and deleted by recovery)
 *   snapshot-00000000000000000007.snap the whole state as of the start of segment 7
 *   snapshot-....snap.tmp              a snapshot being written (ignored and deleted by recovery)
 *   lock                               held by the one process that owns the directory
 * </pre>
 * A segment's header is the 8 ASCII bytes {@code TSJOURNL}, a u32 format version and its u64 number. Segments are
 * numbered from 1 and never appended to after a restart: recovery starts a new one. A segment appears under its
 * name only with its header on disk (written to a temporary file, forced, renamed), so a crash while creating one
 * leaves at most a temporary file behind.
 */
final class JournalFiles {

    /**
     * Segments and snapshots written now: version 2 frames group-commit batches and snapshots carry reservations;
     * version 3 adds the records of clocks (see {@link RecordCodec}) and snapshots of every clock; version 4 the
     * records of deliveries and clock settings, and snapshots with both; version 5 snapshots keep each clock's
     * recent acknowledgements (segments are as in version 4); version 6 the record of time passed without firing
     * and snapshots with each clock's fired-through time; version 7 clock numbers as longs in records (see
     * {@link RecordCodec}) and snapshots; version 8 schedules (records 28 to 33, and a section per clock in
     * snapshots); version 9 push settings in settings records and snapshot settings frames, and the rejected record
     * (34); version 11 the records of scaled clocks and snapshots with each clock's scaled time (version 10 belongs to
     * another feature's records); version 12 the fork record with the source's time (39); version 13 the loaded
     * clock's record (38) with its schedules; version 14 dedupe windows (a flagged settings field), the release of a
     * reserved id (44) and snapshots with each clock's reserved ids; version 15 flow control (records 50 and up:
     * keyed timers and deliveries, flow settings, claims that name their deliveries); version 16 the trace context of
     * a timer and of a delivery (records 56 and 57), and of a keyed one (records 53 and 54: key, then context);
     * version 17 overrides of single keys' flow control (records 46 and 47, and settings that hold them); version 18
     * changes of a live clock (record 48) and settings that are paused or hold a retry duration (flags of the mode
     * byte); version 19 the batch across clocks (record 49).
     */
    static final int FORMAT_VERSION = 19;
    /** A batch across clocks: one record (49) holding each clock's batch. */
    static final int ACROSS_CLOCKS_FORMAT_VERSION = 19;
    /** Changes of a live clock (48); settings flagged paused, or with a retry duration after their other fields. */
    static final int CLOCK_CHANGE_FORMAT_VERSION = 18;
    /** Dedupe windows: settings with a window, the release record (44), each clock's reserved ids in snapshots. */
    static final int DEDUPE_FORMAT_VERSION = 14;
    /** Overrides of single keys' flow control: records 46 and 47, and settings with their keys. */
    static final int FLOW_KEYS_FORMAT_VERSION = 17;
    /** Flow control: keyed timers (50) and deliveries (51), flow settings and flow-limited claims. */
    static final int FLOW_FORMAT_VERSION = 15;
    /** Timers and deliveries with the trace context of the request that added them (records 56, 57; 53, 54 keyed). */
    static final int TRACE_CONTEXT_FORMAT_VERSION = 16;
    /** A loaded clock's record (38) ends with its schedules; one of an earlier version holds none. */
    static final int LOADED_SCHEDULES_FORMAT_VERSION = 13;
    /** Schedules: their records and each clock's schedule section in snapshots. */
    static final int SCHEDULES_FORMAT_VERSION = 8;
    /** Settings of push clocks (delivery 2 with its target) and the rejected record; no new snapshot section. */
    static final int PUSH_FORMAT_VERSION = 9;
    /** Scaled clocks: their records, and snapshots with each clock's scaled time. */
    static final int SCALED_FORMAT_VERSION = 11;
    /** Clock numbers as longs; before, as u32. */
    static final int WIDE_CLOCK_NUMBERS_FORMAT_VERSION = 7;
    /** The record of time passed and snapshots with fired-through times. */
    static final int FIRED_THROUGH_FORMAT_VERSION = 6;
    /** Snapshots with recent acknowledgements but without a fired-through time; still read. */
    static final int RECENT_ACKS_FORMAT_VERSION = 5;
    /** Snapshots with settings and deliveries but without recent acknowledgements; still read. */
    static final int DELIVERIES_FORMAT_VERSION = 4;
    /** Clocks without settings or deliveries; still read. */
    static final int CLOCKS_FORMAT_VERSION = 3;
    /** Group-commit batches and snapshots with reservations, before clocks; still read. */
    static final int BATCHED_FORMAT_VERSION = 2;
    /** The first version, still read: segments of bare record frames, snapshots without sequence reservations. */
    static final int LEGACY_FORMAT_VERSION = 1;
    static final byte[] SEGMENT_MAGIC = "TSJOURNL".getBytes(StandardCharsets.US_ASCII);
    static final byte[] SNAPSHOT_MAGIC = "TSSNAPSH".getBytes(StandardCharsets.US_ASCII);
    static final int SEGMENT_HEADER_BYTES = 8 + 4 + 8;

    private static final Pattern SEGMENT = Pattern.compile("journal-(\\d{20})\\.log");
    private static final Pattern SNAPSHOT = Pattern.compile("snapshot-(\\d{20})\\.snap");

    private JournalFiles() {
    }

    static Path segment(Path dir, long number) {
        return dir.resolve(String.format("journal-%020d.log", number));
    }

    static Path snapshot(Path dir, long segment) {
        return dir.resolve(String.format("snapshot-%020d.snap", segment));
    }

    static Path segmentTemp(Path dir, long number) {
        return dir.resolve(String.format("journal-%020d.log.tmp", number));
    }

    static Path snapshotTemp(Path dir, long segment) {
        return dir.resolve(String.format("snapshot-%020d.snap.tmp", segment));
    }

    static List<Long> segmentNumbers(Path dir) throws IOException {
        return numbers(dir, SEGMENT);
    }

    static List<Long> snapshotNumbers(Path dir) throws IOException {
        return numbers(dir, SNAPSHOT);
    }

    static OptionalLong latest(List<Long> numbers) {
        return numbers.isEmpty() ? OptionalLong.empty() : OptionalLong.of(numbers.get(numbers.size() - 1));
    }

    static ByteBuffer segmentHeader(long number) {
        ByteBuffer header = ByteBuffer.allocate(SEGMENT_HEADER_BYTES);
        header.put(SEGMENT_MAGIC).putInt(FORMAT_VERSION).putLong(number).flip();
        return header;
    }

    /**
     * Creates segment {@code number} with its header, durable (file and directory entry), open for appends. The
     * header is written and forced under a temporary name first, so the segment's name never points at a partial
     * header whatever moment a crash or a full disk strikes.
     */
    static FileChannel createSegment(Path dir, long number) throws IOException {
        Path temp = segmentTemp(dir, number);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer header = segmentHeader(number);
            while (header.hasRemaining()) {
                channel.write(header);
            }
            channel.force(true);
        }
        Path target = segment(dir, number);
        if (Files.exists(target)) {
            Files.deleteIfExists(temp);
            throw new IOException(target + " already exists; a segment is never written twice");
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory(dir);
        FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE);
        channel.position(SEGMENT_HEADER_BYTES);
        return channel;
    }

    /** Makes renames and creations in {@code dir} durable (fsync of the directory itself). */
    static void syncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    private static List<Long> numbers(Path dir, Pattern pattern) throws IOException {
        List<Long> numbers = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(file -> {
                Matcher matcher = pattern.matcher(file.getFileName().toString());
                if (matcher.matches()) {
                    numbers.add(Long.parseLong(matcher.group(1)));
                }
            });
        }
        numbers.sort(null);
        return numbers;
    }
}
