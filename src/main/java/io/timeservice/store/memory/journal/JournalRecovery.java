package io.timeservice.store.memory.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.RecoveredClocks;
import io.timeservice.store.memory.RecoveredSnapshot;

/**
 * Reads a data directory back: the latest snapshot, then every journal segment from the one it starts, in order,
 * streamed frame by frame ({@link SegmentReader}), so memory stays bounded however long the journal is.
 *
 * <p>A crash can tear only the end of the newest segment. A newest segment shorter than its header (or with a
 * header of zero bytes) is deleted with a warning and its number written again, every time; a torn write at its end
 * is cut off with a warning naming the file and offset. An empty segment (0 bytes, as the previous release left a
 * torn header it cut off) holds no record and is skipped with a warning wherever it is. Damage anywhere else — in
 * committed data, or in an older segment — means data on disk was damaged after it was acknowledged; recovery then
 * stops start-up rather than silently drop acknowledged timers.
 */
final class JournalRecovery {

    /** Everything recovery found, read into a list (tests): replay on {@code snapshot} (null: none). */
    record Result(RecoveredSnapshot snapshot, long snapshotSegment, List<Mutation> mutations, long nextSegment,
                  int segmentsRead) {
    }

    private JournalRecovery() {
    }

    /** Reads the whole directory into memory; for tests, the service streams through {@link #plan}. */
    static Result recover(Path dir, Consumer<String> warn) throws IOException {
        try (Plan plan = plan(dir, warn)) {
            List<Mutation> mutations = new ArrayList<>();
            plan.forEach(mutations::add);
            return new Result(plan.snapshot(), plan.snapshotSegment(), mutations, plan.nextSegment(),
                    plan.segmentCount());
        }
    }

    /**
     * Reads the snapshot, checks the segments after it are all there, and clears away what a crash can leave: files
     * being created and a newest segment with a torn header. The segments themselves are read while the plan is
     * iterated.
     */
    static Plan plan(Path dir, Consumer<String> warn) throws IOException {
        deleteTemporaryFiles(dir);
        List<Long> snapshots = JournalFiles.snapshotNumbers(dir);
        RecoveredClocks snapshot = null;
        long firstSegment = 1;
        if (!snapshots.isEmpty()) {
            firstSegment = snapshots.get(snapshots.size() - 1);
            snapshot = SnapshotFile.readClocks(JournalFiles.snapshot(dir, firstSegment));
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
        if (!segments.isEmpty()) {
            long newest = segments.get(segments.size() - 1);
            Path file = JournalFiles.segment(dir, newest);
            long size = Files.size(file);
            if (size < JournalFiles.SEGMENT_HEADER_BYTES || size == JournalFiles.SEGMENT_HEADER_BYTES
                    && allZero(file)) {
                warn.accept("journal " + file + ": torn header (" + size + " bytes) from a crash while it was"
                        + " created; deleted, the segment is written again");
                Files.delete(file);
                JournalFiles.syncDirectory(dir);
                segments.remove(segments.size() - 1);
            }
        }
        long next = segments.isEmpty() ? firstSegment : segments.get(segments.size() - 1) + 1;
        for (int i = segments.size() - 1; i >= 0; i--) {
            Path file = JournalFiles.segment(dir, segments.get(i));
            if (Files.size(file) == 0) {
                // the previous release cut a torn header to 0 bytes and went on with the next segment
                warn.accept("journal " + file + ": empty (a crash while it was created, cut by an earlier version);"
                        + " it holds no records, skipped");
                segments.remove(i);
            }
        }
        return new Plan(dir, snapshot, snapshot == null ? 0 : firstSegment, segments, next, warn);
    }

    /**
     * The recovered snapshot and, as an {@link Iterable} to be read once, every journal record after it. Reading
     * throws {@link JournalCorruptedException} for damage and {@link UncheckedIOException} for I/O errors.
     */
    static final class Plan implements Iterable<Mutation>, AutoCloseable {

        private final Path dir;
        private final RecoveredClocks snapshot;
        private final long snapshotSegment;
        private final List<Long> segments;
        private final long nextSegment;
        private final Consumer<String> warn;
        private SegmentReader reader;
        private int segmentsOpened;
        private long recordsRead;
        private boolean iterated;

        private Plan(Path dir, RecoveredClocks snapshot, long snapshotSegment, List<Long> segments,
                     long nextSegment, Consumer<String> warn) {
            this.dir = dir;
            this.snapshot = snapshot;
            this.snapshotSegment = snapshotSegment;
            this.segments = segments;
            this.nextSegment = nextSegment;
            this.warn = warn;
        }

        /** The default clock's snapshot to start from, or {@code null} for none. */
        RecoveredSnapshot snapshot() {
            return snapshot == null ? null : snapshot.defaultClock();
        }

        /** The snapshot of every clock to start from, or {@code null} for none. */
        RecoveredClocks clocksSnapshot() {
            return snapshot;
        }

        long snapshotSegment() {
            return snapshotSegment;
        }

        /** The number the next segment written must have. */
        long nextSegment() {
            return nextSegment;
        }

        int segmentCount() {
            return segments.size();
        }

        /** Records read so far. */
        long recordsRead() {
            return recordsRead;
        }

        @Override
        public Iterator<Mutation> iterator() {
            if (iterated) {
                throw new IllegalStateException("a recovery plan is read once");
            }
            iterated = true;
            ArrayDeque<Mutation> frame = new ArrayDeque<>();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    try {
                        while (frame.isEmpty()) {
                            if (!readFrame(frame)) {
                                return false;
                            }
                        }
                        return true;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public Mutation next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    recordsRead++;
                    return frame.poll();
                }
            };
        }

        /** Adds the next frame's mutations to {@code into}; false when every segment is read. */
        private boolean readFrame(ArrayDeque<Mutation> into) throws IOException {
            while (true) {
                if (reader == null) {
                    if (segmentsOpened == segments.size()) {
                        return false;
                    }
                    long number = segments.get(segmentsOpened);
                    reader = new SegmentReader(JournalFiles.segment(dir, number), number,
                            segmentsOpened == segments.size() - 1, warn);
                    segmentsOpened++;
                }
                List<Mutation> mutations = reader.next();
                if (mutations != null) {
                    into.addAll(mutations);
                    return true;
                }
                reader.close();
                reader = null;
            }
        }

        @Override
        public void close() throws IOException {
            if (reader != null) {
                reader.close();
                reader = null;
            }
        }
    }

    private static boolean allZero(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer bytes = ByteBuffer.allocate(JournalFiles.SEGMENT_HEADER_BYTES);
            while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
                // read the whole header
            }
            for (int i = 0; i < bytes.position(); i++) {
                if (bytes.get(i) != 0) {
                    return false;
                }
            }
            return true;
        }
    }

    private static void deleteTemporaryFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (name.endsWith(".snap.tmp") || name.endsWith(".log.tmp")) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }
}
