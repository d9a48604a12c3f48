package io.timeservice.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.timeservice.core.Mutation;
import io.timeservice.core.TimerScheduler.RecoveredSnapshot;

/**
 * Reads a data directory back: the latest snapshot, then every journal segment from the one it starts, in order.
 *
 * <p>A crash can tear only the end of the newest segment, so a bad frame there that runs to the end of the file (or
 * into never-written zero bytes) is cut off with a warning naming the file and offset. A bad frame anywhere else —
 * one that valid data follows, or in an older segment — means data on disk was damaged after it was acknowledged;
 * recovery then stops start-up rather than silently drop acknowledged timers.
 */
final class JournalRecovery {

    /** What recovery found: replay {@code mutations} on {@code snapshot} (null: none), then write segment {@code nextSegment}. */
    record Result(RecoveredSnapshot snapshot, long snapshotSegment, List<Mutation> mutations, long nextSegment,
                  int segmentsRead) {
    }

    private JournalRecovery() {
    }

    static Result recover(Path dir, Consumer<String> warn) throws IOException {
        deleteTemporaryFiles(dir);
        List<Long> snapshots = JournalFiles.snapshotNumbers(dir);
        RecoveredSnapshot snapshot = null;
        long firstSegment = 1;
        if (!snapshots.isEmpty()) {
            firstSegment = snapshots.get(snapshots.size() - 1);
            snapshot = SnapshotFile.read(JournalFiles.snapshot(dir, firstSegment));
        }
        List<Long> segments = new ArrayList<>();
        for (long number : JournalFiles.segmentNumbers(dir)) {
            if (number < firstSegment) {
                Files.deleteIfExists(JournalFiles.segment(dir, number)); // covered by the snapshot
            } else {
                segments.add(number);
            }
        }
        for (int i = 0; i < segments.size(); i++) {
            if (segments.get(i) != firstSegment + i) {
                throw new JournalCorruptedException("journal segment " + (firstSegment + i) + " is missing from "
                        + dir + " (found " + segments + ")");
            }
        }
        List<Mutation> mutations = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            readSegment(dir, segments.get(i), i == segments.size() - 1, mutations, warn);
        }
        long next = segments.isEmpty() ? firstSegment : segments.get(segments.size() - 1) + 1;
        return new Result(snapshot, snapshot == null ? 0 : firstSegment, mutations, next, segments.size());
    }

    private static void readSegment(Path dir, long number, boolean newest, List<Mutation> out,
                                    Consumer<String> warn) throws IOException {
        Path file = JournalFiles.segment(dir, number);
        byte[] bytes = Files.readAllBytes(file);
        int header = JournalFiles.SEGMENT_HEADER_BYTES;
        if (bytes.length < header) {
            if (newest) {
                warn.accept("journal " + file + ": torn header (" + bytes.length + " bytes), truncated to 0");
                truncate(file, 0);
                return;
            }
            throw new JournalCorruptedException(file + " is shorter than a segment header");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        byte[] magic = new byte[JournalFiles.SEGMENT_MAGIC.length];
        buffer.get(magic);
        int version = buffer.getInt();
        long storedNumber = buffer.getLong();
        if (!Arrays.equals(magic, JournalFiles.SEGMENT_MAGIC)) {
            throw new JournalCorruptedException(file + " is not a TimeService journal segment");
        }
        if (version != JournalFiles.FORMAT_VERSION) {
            throw new JournalCorruptedException(file + " has journal format version " + version
                    + "; this TimeService reads version " + JournalFiles.FORMAT_VERSION);
        }
        if (storedNumber != number) {
            throw new JournalCorruptedException(file + " says it is segment " + storedNumber);
        }
        int offset = header;
        while (offset < bytes.length) {
            String problem;
            if (bytes.length - offset < RecordCodec.FRAME_HEADER_BYTES) {
                problem = "incomplete frame header";
            } else {
                int length = buffer.getInt(offset);
                int crc = buffer.getInt(offset + 4);
                long frameEnd = (long) offset + RecordCodec.FRAME_HEADER_BYTES + length;
                if (length <= 0 || length > RecordCodec.MAX_BODY_BYTES) {
                    problem = "impossible record length " + length;
                } else if (frameEnd > bytes.length) {
                    problem = "record runs past the end of the file";
                } else if (RecordCodec.crc32c(bytes, offset + RecordCodec.FRAME_HEADER_BYTES, length) != crc) {
                    problem = "record fails its checksum";
                } else {
                    try {
                        out.add(RecordCodec.decode(ByteBuffer.wrap(bytes, offset + RecordCodec.FRAME_HEADER_BYTES,
                                length).slice()));
                    } catch (RecordCodec.CorruptRecordException | java.nio.BufferUnderflowException e) {
                        throw new JournalCorruptedException(file + " at offset " + offset
                                + ": a record with a valid checksum does not decode (" + e.getMessage() + ")");
                    }
                    offset = (int) frameEnd;
                    continue;
                }
            }
            if (newest && !validFrameAfter(bytes, offset)) {
                warn.accept("journal " + file + ": " + problem + " at offset " + offset + " (" + (bytes.length - offset)
                        + " bytes, a write torn by a crash); truncated there");
                truncate(file, offset);
                return;
            }
            throw new JournalCorruptedException(file + " at offset " + offset + ": " + problem + ", and "
                    + (newest ? "more data follows it" : "newer segments follow it")
                    + "; acknowledged data would be lost, so start-up stops. Restore the data directory from a"
                    + " backup or move the damaged file away knowingly.");
        }
    }

    /**
     * Whether any intact frame starts after {@code offset}: a torn tail is followed by nothing intact, damage in
     * the middle is. Random bytes pass a CRC32C check with odds of one in four billion.
     */
    private static boolean validFrameAfter(byte[] bytes, int offset) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        for (int at = offset + 1; at + RecordCodec.FRAME_HEADER_BYTES < bytes.length; at++) {
            int length = buffer.getInt(at);
            if (length > 0 && length <= bytes.length - at - RecordCodec.FRAME_HEADER_BYTES
                    && RecordCodec.crc32c(bytes, at + RecordCodec.FRAME_HEADER_BYTES, length) == buffer.getInt(at + 4)) {
                return true;
            }
        }
        return false;
    }

    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(size);
            channel.force(true);
        }
    }

    private static void deleteTemporaryFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (file.getFileName().toString().endsWith(".snap.tmp")) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }
}
