package io.timeservice.store.memory.journal;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

import io.timeservice.store.memory.Mutation;

/**
 * Reads one journal segment frame by frame, holding at most one frame in memory (a batch of about
 * {@link JournalWriter#BATCH_TARGET_BYTES}, or one largest record), whatever the segment's size.
 *
 * <p>A frame is a group-commit batch in format version 2 and a single record in version 1. A frame is replayed only
 * when it is whole and passes its checksum. A bad frame in the newest segment is a torn write, cut off with a
 * warning, unless a frame follows that proves the damaged bytes had been acknowledged: in version 2, an intact batch
 * whose header says the segment had been forced past the damage before it was written; in version 1, any intact
 * frame. Otherwise, and anywhere in an older segment, the damage stops start-up.
 */
final class SegmentReader implements AutoCloseable {

    private static final int V1_FRAME_HEADER_BYTES = RecordCodec.FRAME_HEADER_BYTES;

    private final Path file;
    private final boolean newest;
    private final Consumer<String> warn;
    private final FileChannel channel;
    private final long size;
    private final int version;
    private final int frameHeaderBytes;
    private final int maxFrameBody;
    private final DataInputStream in;
    private long position = JournalFiles.SEGMENT_HEADER_BYTES;
    private byte[] body = new byte[64 * 1024];

    /**
     * Opens segment {@code number} and checks its header.
     *
     * @param newest whether no segment follows it, so that a torn write at its end is expected after a crash
     * @throws JournalCorruptedException when the header is short, foreign, of an unknown version or misnumbered
     */
    SegmentReader(Path file, long number, boolean newest, Consumer<String> warn) throws IOException {
        this.file = file;
        this.newest = newest;
        this.warn = warn;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            this.size = channel.size();
            if (size < JournalFiles.SEGMENT_HEADER_BYTES) {
                throw new JournalCorruptedException(file + " is shorter than a segment header (" + size
                        + " bytes) and newer segments follow it");
            }
            ByteBuffer header = ByteBuffer.allocate(JournalFiles.SEGMENT_HEADER_BYTES);
            readFully(header, 0);
            byte[] magic = new byte[JournalFiles.SEGMENT_MAGIC.length];
            header.get(magic);
            this.version = header.getInt();
            long storedNumber = header.getLong();
            if (!Arrays.equals(magic, JournalFiles.SEGMENT_MAGIC)) {
                throw new JournalCorruptedException(file + " is not a TimeService journal segment");
            }
            if (version < JournalFiles.LEGACY_FORMAT_VERSION || version > JournalFiles.FORMAT_VERSION) {
                throw new JournalCorruptedException(file + " has journal format version " + version
                        + "; this TimeService reads versions " + JournalFiles.LEGACY_FORMAT_VERSION + " to "
                        + JournalFiles.FORMAT_VERSION);
            }
            if (storedNumber != number) {
                throw new JournalCorruptedException(file + " says it is segment " + storedNumber);
            }
            boolean batched = version != JournalFiles.LEGACY_FORMAT_VERSION;
            this.frameHeaderBytes = batched ? JournalWriter.BATCH_HEADER_BYTES : V1_FRAME_HEADER_BYTES;
            this.maxFrameBody = batched ? JournalWriter.MAX_BATCH_BODY_BYTES : RecordCodec.MAX_BODY_BYTES;
            channel.position(JournalFiles.SEGMENT_HEADER_BYTES);
            this.in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel), 1 << 16));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * The mutations of the next intact frame, or {@code null} at the end of the segment (after cutting off a torn
     * write there).
     *
     * @throws JournalCorruptedException when damage is not a torn write
     */
    List<Mutation> next() throws IOException {
        if (position >= size) {
            return null;
        }
        long offset = position;
        String problem;
        if (size - offset < frameHeaderBytes) {
            problem = "incomplete frame header";
        } else {
            int length = in.readInt();
            int crc = in.readInt();
            long forcedBefore = frameHeaderBytes == JournalWriter.BATCH_HEADER_BYTES ? in.readLong() : 0;
            if (length <= 0 || length > maxFrameBody) {
                problem = "impossible frame length " + length;
            } else if (offset + frameHeaderBytes + length > size) {
                problem = "frame runs past the end of the file";
            } else {
                if (body.length < length) {
                    body = new byte[Math.max(length, Math.min(maxFrameBody, body.length * 2))];
                }
                in.readFully(body, 0, length);
                if (checksum(forcedBefore, length) != crc) {
                    problem = "frame fails its checksum";
                } else {
                    position = offset + frameHeaderBytes + length;
                    return decode(offset, length);
                }
            }
        }
        cutTornWrite(offset, problem);
        return null;
    }

    private int checksum(long forcedBefore, int length) {
        CRC32C crc = new CRC32C();
        if (frameHeaderBytes == JournalWriter.BATCH_HEADER_BYTES) {
            crc.update(ByteBuffer.allocate(8).putLong(0, forcedBefore));
        }
        crc.update(body, 0, length);
        return (int) crc.getValue();
    }

    private List<Mutation> decode(long offset, int length) {
        List<Mutation> mutations = new ArrayList<>();
        try {
            if (frameHeaderBytes == V1_FRAME_HEADER_BYTES) {
                mutations.add(RecordCodec.decode(ByteBuffer.wrap(body, 0, length).slice()));
                return mutations;
            }
            ByteBuffer batch = ByteBuffer.wrap(body, 0, length);
            while (batch.hasRemaining()) {
                int at = batch.position();
                int recordLength = batch.getInt();
                int recordCrc = batch.getInt();
                if (recordLength <= 0 || recordLength > batch.remaining()
                        || RecordCodec.crc32c(body, batch.position(), recordLength) != recordCrc) {
                    throw new RecordCodec.CorruptRecordException("record at " + at + " in the batch is damaged");
                }
                mutations.add(RecordCodec.decode(ByteBuffer.wrap(body, batch.position(), recordLength).slice()));
                batch.position(batch.position() + recordLength);
            }
            return mutations;
        } catch (RecordCodec.CorruptRecordException | BufferUnderflowException e) {
            throw new JournalCorruptedException(file + " at offset " + offset + ": a frame with a valid checksum"
                    + " does not decode (" + e.getMessage() + ")");
        }
    }

    /** Truncates the segment at {@code offset} if the bad frame there is a torn write; throws if it is not. */
    private void cutTornWrite(long offset, String problem) throws IOException {
        if (!newest || acknowledgedFrameAfter(offset)) {
            throw new JournalCorruptedException(file + " at offset " + offset + ": " + problem + ", and "
                    + (newest ? "more data follows it, written after this offset was on disk"
                    : "newer segments follow it")
                    + "; acknowledged data would be lost, so start-up stops. Restore the data directory from a"
                    + " backup or move the damaged file away knowingly.");
        }
        warn.accept("journal " + file + ": " + problem + " at offset " + offset + " (" + (size - offset)
                + " bytes, a write torn by a crash before it was forced to disk); truncated there");
        try (FileChannel writable = FileChannel.open(file, StandardOpenOption.WRITE)) {
            writable.truncate(offset);
            writable.force(true);
        }
        position = size;
    }

    /**
     * Whether an intact frame after {@code damaged} shows that the damaged bytes had been acknowledged: a version 2
     * batch records how far the segment was forced before it was written, so only a batch written after the damaged
     * bytes were forced counts; in version 1 any intact frame does. Scans in a bounded window; random bytes pass a
     * CRC32C check with odds of one in four billion.
     */
    private boolean acknowledgedFrameAfter(long damaged) throws IOException {
        boolean batched = frameHeaderBytes == JournalWriter.BATCH_HEADER_BYTES;
        ByteBuffer window = ByteBuffer.allocate(1 << 16);
        long windowStart = Long.MIN_VALUE;
        for (long at = damaged + 1; at + frameHeaderBytes <= size; at++) {
            if (at + frameHeaderBytes > windowStart + window.limit() || windowStart == Long.MIN_VALUE) {
                window.clear();
                readFully(window, at);
                windowStart = at;
            }
            int relative = (int) (at - windowStart);
            int length = window.getInt(relative);
            if (length <= 0 || length > maxFrameBody || at + frameHeaderBytes + length > size) {
                continue;
            }
            if (batched) {
                long forcedBefore = window.getLong(relative + 8);
                if (forcedBefore <= damaged || forcedBefore > at) {
                    continue;
                }
            }
            if (checksumAt(at, length) == window.getInt(relative + 4)) {
                return true;
            }
        }
        return false;
    }

    /** The checksum a frame at {@code at} with a body of {@code length} should carry, read from the file. */
    private int checksumAt(long at, int length) throws IOException {
        CRC32C crc = new CRC32C();
        long from = at + 8;
        long end = at + frameHeaderBytes + length;
        ByteBuffer chunk = ByteBuffer.allocate(1 << 16);
        while (from < end) {
            chunk.clear().limit((int) Math.min(chunk.capacity(), end - from));
            readFully(chunk, from);
            if (!chunk.hasRemaining()) {
                break; // the file ended early: the caller checked the length, so only a concurrent truncation
            }
            from += chunk.limit();
            crc.update(chunk);
        }
        return (int) crc.getValue();
    }

    /** Fills {@code buffer} from {@code offset} or up to the end of the file, then flips it. */
    private void readFully(ByteBuffer buffer, long offset) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, offset + buffer.position()) < 0) {
                break;
            }
        }
        buffer.flip();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
