package io.timeservice.store.memory.journal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

import io.timeservice.model.Delivery;
import io.timeservice.model.Limits;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.SavedDelivery;

/**
 * The journal's record format: a record is a frame
 * <pre>
 *   u32 length     of the body, big-endian
 *   u32 crc32c     of the body
 *   body           u8 tag, then the tag's fields (big-endian integers; strings as u32 length + UTF-8, -1 for none)
 * </pre>
 * This class frames records and hands each body to the codec of its family, as the table of tags ({@link RecordTag})
 * says: {@link TimerRecords}, {@link ClockRecords}, {@link DeliveryRecords}, {@link SettingsRecords},
 * {@link ScheduleRecords}. Snapshots store their timers as added bodies ({@link RecordTag#ADDED}) and their
 * deliveries as {@link RecordTag#SAVED_DELIVERY} bodies in the same frames. The format's history, version by
 * version, is in docs/DURABILITY.md.
 *
 * <p>Every record the service can accept fits: a payload is at most {@link #MAX_PAYLOAD_BYTES} (the configuration
 * refuses larger limits) and the rest of a record at most {@link #MAX_RECORD_OVERHEAD} bytes. A batch holds at most
 * {@link #MAX_BATCH_PARTS} records whose payloads came in one request body, so together at most
 * {@link #MAX_PAYLOAD_BYTES} as sent; as compact JSON they may take up to twice that ({@code 1e-6} is written
 * {@code 0.000001}). A loaded clock's record ({@link RecordTag#CLOCK_LOADED}) may take up to
 * {@link #MAX_LOAD_BODY_BYTES}.
 *
 * <p>The encoder refuses exactly what the decoder would refuse ({@link RecordRefusals#refusal} states the decoder's
 * rules for a mutation), so that nothing written is refused by recovery. A list of claims or sequences holds at
 * least one and is otherwise bounded only by the record's size ({@code Limits.MAX_DEAD_LETTERS_PER_CALL} keeps a
 * redrive's far below it; journals of earlier versions hold lists of up to {@link #MAX_BODY_BYTES} / 8 sequences).
 */
final class RecordCodec {

    static final int FRAME_HEADER_BYTES = 8;
    /**
     * The largest payload (compact JSON, UTF-8) a record holds: {@code timeservice.limits.max-payload-bytes} must be
     * below {@code max-body-bytes}, which is at most this.
     */
    public static final int MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;
    /** Everything in a record besides the payload: 49 bytes of fields, two string lengths, an id of 128 characters. */
    static final int MAX_RECORD_OVERHEAD = 1024;
    /** Most records one batch record holds: {@code Limits.MAX_BATCH_OPS}. */
    static final int MAX_BATCH_PARTS = 1_000;
    static final int MAX_BODY_BYTES = 2 * MAX_PAYLOAD_BYTES + MAX_BATCH_PARTS * MAX_RECORD_OVERHEAD;
    /**
     * The largest record of a loaded clock: a snapshot document of at most {@link Limits#MAX_SNAPSHOT_BYTES} takes at
     * most twice that here (each timer's and delivery's fixed fields are shorter than their JSON member names, and a
     * payload as compact JSON at most twice as long as sent, as for {@link #MAX_BODY_BYTES}).
     */
    static final int MAX_LOAD_BODY_BYTES = 2 * Limits.MAX_SNAPSHOT_BYTES + MAX_RECORD_OVERHEAD;

    /** The largest body a record of any type may have. */
    static final int MAX_ANY_BODY_BYTES = Math.max(MAX_BODY_BYTES, MAX_LOAD_BODY_BYTES);

    private RecordCodec() {
    }

    /**
     * Appends {@code mutation} as one frame to {@code out}, growing it when needed; returns the buffer used.
     *
     * @throws IllegalArgumentException when the record would be larger than {@link #MAX_BODY_BYTES}; the buffer may
     *                                  then hold part of it (callers truncate)
     */
    static GrowableBuffer encode(Mutation mutation, GrowableBuffer out) {
        String refused = RecordRefusals.refusal(mutation, true);
        if (refused != null) {
            throw new IllegalArgumentException("a record the journal could not read back: " + refused);
        }
        return encodeUnchecked(mutation, out);
    }

    /** Appends {@code mutation} as one frame whatever it holds: for tests of what the decoder refuses. */
    static GrowableBuffer encodeUnchecked(Mutation mutation, GrowableBuffer out) {
        int frameStart = out.length();
        out.skip(FRAME_HEADER_BYTES);
        int bodyStart = out.length();
        encodeBody(mutation, out);
        return frame(out, frameStart, bodyStart);
    }

    /** Appends one snapshot frame holding {@code saved}. */
    static GrowableBuffer encode(SavedDelivery saved, GrowableBuffer out) {
        Delivery d = saved.delivery();
        if (!DeliveryRecords.readable(d.state().ordinal(), d.attempt(), d.claim(), d.id())) {
            throw new IllegalArgumentException("a snapshot's delivery the journal could not read back: " + d);
        }
        int frameStart = out.length();
        out.skip(FRAME_HEADER_BYTES);
        int bodyStart = out.length();
        DeliveryRecords.putDelivery(saved, out);
        return frame(out, frameStart, bodyStart);
    }

    /** Decodes one snapshot delivery body (without the frame header). */
    static SavedDelivery decodeDelivery(ByteBuffer body) {
        SavedDelivery saved = DeliveryRecords.getDelivery(body);
        if (body.hasRemaining()) {
            throw new CorruptRecordException("a snapshot's delivery of sequence " + saved.delivery().sequence()
                    + " has bytes left over");
        }
        return saved;
    }

    private static GrowableBuffer frame(GrowableBuffer out, int frameStart, int bodyStart) {
        int bodyLength = out.length() - bodyStart;
        boolean loaded = bodyLength > 0 && out.array()[bodyStart] == RecordTag.CLOCK_LOADED.code;
        int limit = loaded ? MAX_LOAD_BODY_BYTES : MAX_BODY_BYTES;
        if (bodyLength > limit) {
            throw new IllegalArgumentException("a record of " + bodyLength + " bytes is over the journal's limit of "
                    + limit);
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), bodyStart, bodyLength);
        out.putIntAt(frameStart, bodyLength);
        out.putIntAt(frameStart + 4, (int) crc.getValue());
        return out;
    }

    /** Writes {@code mutation}'s body (tag and fields) through the codec of its family. */
    static void encodeBody(Mutation mutation, GrowableBuffer out) {
        if (mutation instanceof Mutation.ScheduleChange change) {
            ScheduleRecords.encode(change, out);
        } else if (!TimerRecords.encode(mutation, out) && !ClockRecords.encode(mutation, out)
                && !DeliveryRecords.encode(mutation, out) && !SettingsRecords.encode(mutation, out)) {
            throw new IllegalArgumentException("unknown mutation " + mutation);
        }
    }

    /** Decodes one body (without the frame header). */
    static Mutation decode(ByteBuffer body) {
        byte type = body.get(body.position());
        Mutation mutation = decodeBody(body, true);
        if (body.hasRemaining()) {
            throw new CorruptRecordException("record of type " + type + " has " + body.remaining()
                    + " bytes left over");
        }
        return mutation;
    }

    /**
     * Reads one body through the codec of its tag's family, leaving the buffer after it ({@code outermost}: in no
     * other record).
     */
    static Mutation decodeBody(ByteBuffer body, boolean outermost) {
        byte type = body.get();
        RecordTag tag = RecordTag.of(type);
        if (tag == null) {
            throw new CorruptRecordException("unknown record type " + type);
        }
        return switch (tag.family) {
            case TIMER -> TimerRecords.decode(tag, body);
            case CLOCK -> ClockRecords.decode(tag, body, outermost);
            case DELIVERY -> DeliveryRecords.decode(tag, body);
            case SETTINGS -> SettingsRecords.decode(tag, body);
            case SCHEDULE -> ScheduleRecords.decode(tag, body);
        };
    }

    /** {@code value}, which a record must hold. */
    static String requireString(String value, String what) {
        if (value == null) {
            throw new CorruptRecordException("a record without its " + what);
        }
        return value;
    }

    static int crc32c(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    static String getString(ByteBuffer body) {
        int length = body.getInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > body.remaining()) {
            throw new CorruptRecordException("string length " + length + " exceeds the record");
        }
        String value = new String(body.array(), body.arrayOffset() + body.position(), length, StandardCharsets.UTF_8);
        body.position(body.position() + length);
        return value;
    }

    /** A body that passed its checksum but does not decode: a bug or a format from another version. */
    static final class CorruptRecordException extends RuntimeException {

        CorruptRecordException(String message) {
            super(message);
        }
    }
}
