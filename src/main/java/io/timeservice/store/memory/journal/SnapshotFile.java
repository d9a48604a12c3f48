package io.timeservice.store.memory.journal;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Limits;
import io.timeservice.model.Reservation;
import io.timeservice.model.ScaledTime;
import io.timeservice.store.memory.ClocksState;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.RecentAck;
import io.timeservice.store.memory.RecoveredClocks;
import io.timeservice.store.memory.RecoveredSnapshot;
import io.timeservice.store.memory.SavedDelivery;
import io.timeservice.store.memory.ClockImage;

/**
 * A snapshot file, format version 11 (version 1, still read, lacks {@code reservedSequences}; versions 1 and 2 lack
 * the clocks part and hold the {@code default} clock alone):
 * <pre>
 *   8 bytes "TSSNAPSH", u32 version, u64 segment,
 *   the default clock: u64 now, u64 lastSequence, u64 reservedSequences, u32 count,
 *     count record frames of type "added" (see {@link RecordCodec}),
 *   (version 3) u64 sequenceFloor, u32 nextNumber, u32 clockCount, then per clock: u32 number, name (u32 length +
 *     UTF-8), u64 initialNow, u64 createdAtWallMillis, then its now, lastSequence, reservedSequences, count and
 *     frames as for the default clock,
 *   (version 4) after each clock's timer frames: its settings (as in {@link RecordCodec}), u32 deliveryCount and
 *     deliveryCount frames of type "saved delivery",
 *   (version 5) after each clock's deliveries: u32 ackCount and ackCount recent acknowledgements, oldest first, each
 *     a claim and an id (u32 length + UTF-8 each),
 *   (version 6) after each clock's now (the default clock's too): u64 firedThrough, the time up to which every due
 *     timer had fired (before version 6: its now),
 *   (version 7) nextNumber and each clock's number as u64 (before: u32),
 *   (version 8) after each clock's recent acknowledgements: its schedules ({@link ScheduleRecords#writeSection}),
 *   (version 11) at the end of each clock's data (the default clock's too): u8 1 and u64 wallAnchor, u64 clockAnchor
 *     for a scaled clock (its rate is in its settings), u8 0 for any other,
 *   u32 crc32c of every byte before it
 * </pre>
 * Written to a temporary file, fsynced, renamed into place and the directory fsynced, so a crash leaves either the
 * old set of files or the new snapshot whole.
 */
final class SnapshotFile {

    /** Bound on a claim's or id's bytes when read back: far above what the API accepts, far below harm. */
    private static final int MAX_TEXT_BYTES = 1 << 16;

    private SnapshotFile() {
    }

    /** Writes {@code state} as the snapshot that starts segment {@code segment}; returns the bytes written. */
    static long write(Path dir, long segment, ClockImage state) throws IOException {
        return write(dir, segment, ClocksState.of(state));
    }

    /** Writes every clock of {@code state} as the snapshot that starts segment {@code segment}. */
    static long write(Path dir, long segment, ClocksState state) throws IOException {
        Path temp = JournalFiles.snapshotTemp(dir, segment);
        CRC32C crc = new CRC32C();
        long bytes;
        try (FileOutputStream file = new FileOutputStream(temp.toFile());
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
                     new CheckedOutputStream(file, crc), 1 << 16))) {
            out.write(JournalFiles.SNAPSHOT_MAGIC);
            out.writeInt(JournalFiles.FORMAT_VERSION);
            out.writeLong(segment);
            GrowableBuffer record = new GrowableBuffer(256);
            writeClock(out, state.defaultClock(), record);
            out.writeLong(state.sequenceFloor());
            out.writeLong(state.nextNumber());
            out.writeInt(state.clocks().size());
            for (ClocksState.Clock clock : state.clocks()) {
                out.writeLong(clock.number());
                byte[] name = clock.name().getBytes(StandardCharsets.UTF_8);
                out.writeInt(name.length);
                out.write(name);
                out.writeLong(clock.initialNow());
                out.writeLong(clock.createdAtWallMillis());
                writeClock(out, clock.state(), record);
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
    private static void writeClock(DataOutputStream out, ClockImage state, GrowableBuffer record)
            throws IOException {
        out.writeLong(state.now());
        out.writeLong(state.firedThrough());
        out.writeLong(state.lastSequence());
        out.writeLong(state.reservedSequences());
        out.writeInt(state.size());
        for (int i = 0; i < state.size(); i++) {
            record.clear();
            RecordCodec.encode(new Mutation.Added(state.timer(i), state.createdAtWallMillis(i)), record);
            out.write(record.array(), 0, record.length());
        }
        record.clear();
        RecordCodec.encode(new Mutation.ClockConfigured(state.settings()), record);
        out.write(record.array(), 0, record.length());
        out.writeInt(state.deliveries().size());
        for (SavedDelivery saved : state.deliveries()) {
            record.clear();
            RecordCodec.encode(saved, record);
            out.write(record.array(), 0, record.length());
        }
        out.writeInt(state.recentAcks().size());
        for (RecentAck ack : state.recentAcks()) {
            writeText(out, ack.claim());
            writeText(out, ack.id());
        }
        record.clear();
        ScheduleRecords.writeSection(state.schedules(), state.deliveries(), record);
        out.write(record.array(), 0, record.length());
        ScaledTime scaled = state.scaledTime();
        out.writeByte(scaled == null ? 0 : 1);
        if (scaled != null) {
            out.writeLong(scaled.wallAnchor());
            out.writeLong(scaled.clockAnchor());
        }
        out.writeInt(state.reservations().size());
        for (Reservation reservation : state.reservations()) {
            out.writeByte(reservation.state().ordinal());
            out.writeLong(reservation.time());
            out.writeLong(reservation.sequence());
            writeText(out, reservation.id());
        }
    }

    /** A clock's reserved ids (format {@link JournalFiles#DEDUPE_FORMAT_VERSION}), as {@link #writeClock} wrote them. */
    private static List<Reservation> readReservations(DataInputStream in, Path file) throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new JournalCorruptedException(file + " declares " + count + " reserved ids");
        }
        List<Reservation> reservations = new ArrayList<>(Math.min(count, 1 << 20));
        Reservation.State[] states = Reservation.State.values();
        for (int i = 0; i < count; i++) {
            int state = in.readByte();
            long time = in.readLong();
            long sequence = in.readLong();
            String id = readText(in, file, "a reserved id", 4 * Limits.MAX_ID_LENGTH);
            if (state < 0 || state >= states.length) {
                throw new JournalCorruptedException(file + ": reserved id " + id + " in state " + state);
            }
            reservations.add(new Reservation(id, states[state], time, sequence));
        }
        return reservations;
    }

    private static void writeText(DataOutputStream out, String text) throws IOException {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    /** Reads what {@link #writeText} wrote, at most {@code maxBytes} long. */
    private static String readText(DataInputStream in, Path file, String what, int maxBytes) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > maxBytes) {
            throw new JournalCorruptedException(file + ": " + what + " has a length of " + length + " bytes");
        }
        byte[] utf8 = new byte[length];
        in.readFully(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /** Reads the default clock's part of a snapshot (tests of one clock). */
    static RecoveredSnapshot read(Path file) throws IOException {
        return readClocks(file).defaultClock();
    }

    static RecoveredClocks readClocks(Path file) throws IOException {
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
            if (version < JournalFiles.LEGACY_FORMAT_VERSION || version > JournalFiles.FORMAT_VERSION) {
                throw new JournalCorruptedException(file + " has snapshot format version " + version
                        + "; this TimeService reads versions " + JournalFiles.LEGACY_FORMAT_VERSION + " to "
                        + JournalFiles.FORMAT_VERSION);
            }
            in.readLong(); // segment number, also in the file name
            RecoveredSnapshot defaultClock = readClock(in, file, version);
            RecoveredClocks clocks = RecoveredClocks.of(defaultClock);
            if (version >= JournalFiles.CLOCKS_FORMAT_VERSION) {
                long sequenceFloor = in.readLong();
                long nextNumber = readClockNumber(in, version);
                int clockCount = in.readInt();
                if (clockCount < 0 || nextNumber < 1) {
                    throw new JournalCorruptedException(file + " declares " + clockCount + " clocks and next number "
                            + nextNumber);
                }
                List<RecoveredClocks.Clock> others = new ArrayList<>(Math.min(clockCount, 1 << 16));
                for (int c = 0; c < clockCount; c++) {
                    long number = readClockNumber(in, version);
                    int nameLength = in.readInt();
                    if (nameLength < 1 || nameLength > 1024) {
                        throw new JournalCorruptedException(file + ": clock " + number + " has a name of "
                                + nameLength + " bytes");
                    }
                    byte[] name = new byte[nameLength];
                    in.readFully(name);
                    long initialNow = in.readLong();
                    long createdAt = in.readLong();
                    others.add(new RecoveredClocks.Clock(number, new String(name, StandardCharsets.UTF_8),
                            initialNow, createdAt, readClock(in, file, version)));
                }
                clocks = new RecoveredClocks(defaultClock, others, sequenceFloor, nextNumber);
            }
            int expected = (int) crc.getValue();
            int stored = in.readInt(); // read through the checksum stream, but after taking its value
            if (stored != expected || in.read() != -1) {
                throw new JournalCorruptedException(file + " fails its checksum");
            }
            return clocks;
        } catch (EOFException e) {
            throw new JournalCorruptedException(file + " is truncated");
        } catch (RecordCodec.CorruptRecordException e) {
            throw new JournalCorruptedException(file + ": " + e.getMessage());
        }
    }

    /**
     * A clock number: a u64, or before version 7 a u32, unsigned (a version that numbered past 2^31 - 1 wrapped to
     * negative ints, which read as the numbers they stood for).
     */
    private static long readClockNumber(DataInputStream in, int version) throws IOException {
        return version >= JournalFiles.WIDE_CLOCK_NUMBERS_FORMAT_VERSION ? in.readLong()
                : Integer.toUnsignedLong(in.readInt());
    }

    /** Reads one checked frame's body. */
    private static ByteBuffer readFrame(DataInputStream in, Path file, String what) throws IOException {
        int length = in.readInt();
        int recordCrc = in.readInt();
        if (length <= 0 || length > RecordCodec.MAX_BODY_BYTES) {
            throw new JournalCorruptedException(file + ": " + what + " has length " + length);
        }
        byte[] body = new byte[length];
        in.readFully(body, 0, length);
        if (RecordCodec.crc32c(body, 0, length) != recordCrc) {
            throw new JournalCorruptedException(file + ": " + what + " fails its checksum");
        }
        return ByteBuffer.wrap(body, 0, length);
    }

    private static List<RecentAck> readRecentAcks(DataInputStream in, Path file) throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new JournalCorruptedException(file + " declares " + count + " recent acknowledgements");
        }
        List<RecentAck> acks = new ArrayList<>(Math.min(count, 1 << 16));
        for (int i = 0; i < count; i++) {
            String claim = readText(in, file, "recent ack " + i + "'s claim", MAX_TEXT_BYTES);
            acks.add(new RecentAck(claim, readText(in, file, "recent ack " + i + "'s id", MAX_TEXT_BYTES)));
        }
        return acks;
    }

    /** A scaled clock's time function, or null for a clock of another mode; the flag must match its settings. */
    private static ScaledTime readScaledTime(DataInputStream in, Path file, ClockSettings settings)
            throws IOException {
        int scaled = in.readByte();
        if ((scaled == 1) != settings.isScaled() || (scaled != 0 && scaled != 1)) {
            throw new JournalCorruptedException(file + ": a clock of mode " + settings.mode() + " has scaled-time flag "
                    + scaled);
        }
        if (scaled == 0) {
            return null;
        }
        long wallAnchor = in.readLong();
        long clockAnchor = in.readLong();
        if (clockAnchor < 0) {
            throw new JournalCorruptedException(file + ": a scaled clock anchored at " + clockAnchor);
        }
        return new ScaledTime(wallAnchor, clockAnchor, settings.rate());
    }

    private static RecoveredSnapshot readClock(DataInputStream in, Path file, int version) throws IOException {
        {
            long now = in.readLong();
            long firedThrough = version < JournalFiles.FIRED_THROUGH_FORMAT_VERSION ? now : in.readLong();
            if (firedThrough > now) {
                throw new JournalCorruptedException(file + ": a clock fired through " + firedThrough
                        + ", after its time " + now);
            }
            long lastSequence = in.readLong();
            long reservedSequences = version == JournalFiles.LEGACY_FORMAT_VERSION ? lastSequence : in.readLong();
            int count = in.readInt();
            if (count < 0) {
                throw new JournalCorruptedException(file + " declares " + count + " timers");
            }
            List<Mutation.Added> timers = new ArrayList<>(Math.min(count, 1 << 20));
            for (int i = 0; i < count; i++) {
                if (!(RecordCodec.decode(readFrame(in, file, "timer " + i)) instanceof Mutation.Added added)) {
                    throw new JournalCorruptedException(file + ": record " + i + " is not a timer");
                }
                timers.add(added);
            }
            if (version < JournalFiles.DELIVERIES_FORMAT_VERSION) {
                return new RecoveredSnapshot(now, lastSequence, reservedSequences, timers);
            }
            if (!(RecordCodec.decode(readFrame(in, file, "clock settings"))
                    instanceof Mutation.ClockConfigured settings)) {
                throw new JournalCorruptedException(file + ": a clock's settings are missing");
            }
            int deliveryCount = in.readInt();
            if (deliveryCount < 0) {
                throw new JournalCorruptedException(file + " declares " + deliveryCount + " deliveries");
            }
            List<SavedDelivery> deliveries = new ArrayList<>(Math.min(deliveryCount, 1 << 20));
            for (int i = 0; i < deliveryCount; i++) {
                deliveries.add(RecordCodec.decodeDelivery(readFrame(in, file, "delivery " + i)));
            }
            List<RecentAck> recentAcks = version < JournalFiles.RECENT_ACKS_FORMAT_VERSION ? List.of()
                    : readRecentAcks(in, file);
            if (version < JournalFiles.SCHEDULES_FORMAT_VERSION) {
                return new RecoveredSnapshot(now, lastSequence, reservedSequences, timers, settings.settings(),
                        deliveries, recentAcks, firedThrough);
            }
            ScheduleRecords.Section section = ScheduleRecords.readSection(readFrame(in, file, "schedules"), file);
            ScaledTime scaled = version < JournalFiles.SCALED_FORMAT_VERSION ? null
                    : readScaledTime(in, file, settings.settings());
            List<Reservation> reservations = version < JournalFiles.DEDUPE_FORMAT_VERSION ? List.of()
                    : readReservations(in, file);
            return new RecoveredSnapshot(now, lastSequence, reservedSequences, timers, settings.settings(),
                    section.tag(deliveries), recentAcks, firedThrough, scaled, section.image(), reservations);
        }
    }
}
