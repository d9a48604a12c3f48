package io.timeservice.journal;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

import io.timeservice.core.Mutation;
import io.timeservice.core.SchedulerState;
import io.timeservice.core.RecoveredSnapshot;

/**
 * A snapshot file, format version 2 (version 1, still read, lacks {@code reservedSequences}):
 * <pre>
 *   8 bytes "TSSNAPSH", u32 version, u64 segment, u64 now, u64 lastSequence, u64 reservedSequences, u32 count,
 *   count record frames of type "added" (see {@link RecordCodec}),
 *   u32 crc32c of every byte before it
 * </pre>
 * Written to a temporary file, fsynced, renamed into place and the directory fsynced, so a crash leaves either the
 * old set of files or the new snapshot whole.
 */
final class SnapshotFile {

    private SnapshotFile() {
    }

    /** Writes {@code state} as the snapshot that starts segment {@code segment}; returns the bytes written. */
    static long write(Path dir, long segment, SchedulerState state) throws IOException {
        Path temp = JournalFiles.snapshotTemp(dir, segment);
        CRC32C crc = new CRC32C();
        long bytes;
        try (FileOutputStream file = new FileOutputStream(temp.toFile());
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
                     new CheckedOutputStream(file, crc), 1 << 16))) {
            out.write(JournalFiles.SNAPSHOT_MAGIC);
            out.writeInt(JournalFiles.FORMAT_VERSION);
            out.writeLong(segment);
            out.writeLong(state.now());
            out.writeLong(state.lastSequence());
            out.writeLong(state.reservedSequences());
            out.writeInt(state.size());
            GrowableBuffer record = new GrowableBuffer(256);
            for (int i = 0; i < state.size(); i++) {
                record.clear();
                RecordCodec.encode(new Mutation.Added(state.timer(i), state.createdAtWallMillis(i)), record);
                out.write(record.array(), 0, record.length());
            }
            out.flush();
            file.getChannel().write(ByteBuffer.allocate(4).putInt(0, (int) crc.getValue()));
            file.getFD().sync();
            bytes = file.getChannel().size();
        }
        Files.move(temp, JournalFiles.snapshot(dir, segment), StandardCopyOption.ATOMIC_MOVE);
        JournalFiles.syncDirectory(dir);
        return bytes;
    }

    /**
     * Reads and verifies a snapshot.
     *
     * @throws JournalCorruptedException when the file is truncated, fails its checksum or has an unknown version
     */
    static RecoveredSnapshot read(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new CheckedInputStream(new BufferedInputStream(raw, 1 << 16),
                     crc))) {
            byte[] magic = new byte[JournalFiles.SNAPSHOT_MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, JournalFiles.SNAPSHOT_MAGIC)) {
                throw new JournalCorruptedException(file + " is not a TimeService snapshot");
            }
            int version = in.readInt();
            if (version != JournalFiles.FORMAT_VERSION && version != JournalFiles.LEGACY_FORMAT_VERSION) {
                throw new JournalCorruptedException(file + " has snapshot format version " + version
                        + "; this TimeService reads versions " + JournalFiles.LEGACY_FORMAT_VERSION + " and "
                        + JournalFiles.FORMAT_VERSION);
            }
            in.readLong(); // segment number, also in the file name
            long now = in.readLong();
            long lastSequence = in.readLong();
            long reservedSequences = version == JournalFiles.LEGACY_FORMAT_VERSION ? lastSequence : in.readLong();
            int count = in.readInt();
            if (count < 0) {
                throw new JournalCorruptedException(file + " declares " + count + " timers");
            }
            List<Mutation.Added> timers = new ArrayList<>(Math.min(count, 1 << 20));
            byte[] body = new byte[256];
            for (int i = 0; i < count; i++) {
                int length = in.readInt();
                int recordCrc = in.readInt();
                if (length <= 0 || length > RecordCodec.MAX_BODY_BYTES) {
                    throw new JournalCorruptedException(file + ": timer " + i + " has length " + length);
                }
                if (body.length < length) {
                    body = new byte[Math.max(length, body.length * 2)];
                }
                in.readFully(body, 0, length);
                if (RecordCodec.crc32c(body, 0, length) != recordCrc) {
                    throw new JournalCorruptedException(file + ": timer " + i + " fails its checksum");
                }
                if (!(RecordCodec.decode(ByteBuffer.wrap(body, 0, length)) instanceof Mutation.Added added)) {
                    throw new JournalCorruptedException(file + ": record " + i + " is not a timer");
                }
                timers.add(added);
            }
            int expected = (int) crc.getValue();
            int stored = in.readInt(); // read through the checksum stream, but after taking its value
            if (stored != expected || in.read() != -1) {
                throw new JournalCorruptedException(file + " fails its checksum");
            }
            return new RecoveredSnapshot(now, lastSequence, reservedSequences, timers);
        } catch (EOFException e) {
            throw new JournalCorruptedException(file + " is truncated");
        } catch (RecordCodec.CorruptRecordException e) {
            throw new JournalCorruptedException(file + ": " + e.getMessage());
        }
    }
}
