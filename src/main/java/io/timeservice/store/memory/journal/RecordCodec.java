package io.timeservice.store.memory.journal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Limits;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScaledTime;
import io.timeservice.model.SchedulerException;
import io.timeservice.model.Timer;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.RecoveredSnapshot;
import io.timeservice.store.memory.SavedDelivery;
import io.timeservice.store.memory.ScheduleImage;

/**
 * The journal's record format, version 1. A record is a frame:
 * <pre>
 *   u32 length     of the body, big-endian
 *   u32 crc32c     of the body
 *   body           u8 type, then the type's fields (big-endian integers; strings as u32 length + UTF-8)
 * </pre>
 * Types: 1 added (sequence, fireTime, priority, version, createdAt, createdAtWallMillis, id, payload or length -1),
 * 2 cancelled (sequence, id), 3 edited (sequence, fireTime, priority, version, id), 4 advanced (now), 5 reset,
 * 6 sequences reserved (upTo). Snapshots store their timers as type-1 bodies in the same frames.
 *
 * <p>Clocks (format version 3): 7 clock created (number u32, now, createdAtWallMillis, firstSequence, name),
 * 8 a record of a clock (number u32, then the record's own body: type and fields), 9 clock deleted (only inside an 8),
 * 10 a bounded advance that stopped at its limit (now, count u32).
 * 11 an atomic batch (count u32, then each part's own body: type 1, 2 or 3 and its fields), alone or inside an 8.
 * Records without a clock (types 1 to 6 alone, and every record of versions 1 and 2) belong to the {@code default}
 * clock.
 *
 * <p>Deliveries (format version 4): 12 clock created with settings (as 7, then the settings), 13 the default clock's
 * settings changed (settings), 14 deliveries settled (now), 15 claimed (now, leaseMillis, count u32, count claim
 * strings), 16 acked (claim), 17 nacked (claim, now, retryAt), 18 extended (claim, now, leaseMillis), 19 redriven
 * (now, count u32, count sequences), 20 dead deleted (count u32, count sequences), 21 leases renewed (now); 13 to 21
 * alone or inside an 8. Settings are u8 mode (0 virtual, 1 system), u8 delivery (0 response, 1 queue), u32
 * maxAttempts, u64 initialBackoff, f64 multiplier, u64 maxBackoff, f64 jitter. Snapshots store each delivery as a
 * frame of type 22 (sequence, fireTime, priority, attempt u32, state u8, leaseUntil, leaseMillis, retryAt, readyAt,
 * id, payload, claim, deadReason). 23 acked together (count u32, count claim strings), alone or inside an 8.
 *
 * <p>Format version 6: 24 time passed (now): a queueing clock's time moved with nothing fired, alone or inside an 8.
 *
 * <p>Format version 7: clock numbers are longs. A number that fits in u32 is still written as above (types 8 and 12,
 * four bytes fewer per record); a larger one as 25 a record of a clock (number u64, then the record's own body) and
 * 26 clock created with settings (as 12 with number u64). Each record of a clock is read wherever it is.
 * 27 clock forked (number, source, createdAtWallMillis, lastSequence, name); read, no longer written (see 39).
 *
 * <p>38 clock loaded from a saved clock (number, createdAtWallMillis, name, now, firedThrough, lastSequence, settings,
 * count u32 and that many type-1 bodies, count u32 and that many type-22 bodies): the whole clock in one record, up
 * to {@link #MAX_LOAD_BODY_BYTES}.
 *
 * <p>Format version 8: 28 to 33, a clock's schedule changes ({@link ScheduleRecords}).
 *
 * <p>Format version 9 (push delivery, issue 32): settings with delivery 2 (push) are followed by the push target:
 * url string, u64 timeout, u32 concurrency, u32 header count and that many name and value strings, u32 secret count
 * and that many strings (a snapshot's settings frame holds them the same way). 34 rejected (claim, reason): a delivery
 * sent to the dead letters at once, alone or inside an 8.
 *
 * <p>Format version 11 (scaled clocks): settings of mode 2 (scaled) end with u64 rate in millionths; 42 a scaled
 * clock created (as 26; its time function is anchored at its createdAtWallMillis and now), 43 a scaled clock's rate
 * changed (wallAnchor, clockAnchor, rate in millionths), inside an 8 or 25.
 *
 * <p>Format version 12: 39 clock forked at (number, source, createdAtWallMillis, lastSequence, copiedAt, name): as 27,
 * with the source's time the copy holds.
 *
 * <p>Format version 13: 38 ends with the loaded clock's schedules, as a snapshot's schedule section holds them
 * ({@link ScheduleRecords#putSection}); a 38 without them (earlier versions) loads a clock without schedules.
 *
 * <p>Every record the service can accept fits: a payload is at most {@link #MAX_PAYLOAD_BYTES} (the configuration
 * refuses larger limits) and the rest of a record at most {@link #MAX_RECORD_OVERHEAD} bytes. A batch holds at most
 * {@link #MAX_BATCH_PARTS} records whose payloads came in one request body, so together at most
 * {@link #MAX_PAYLOAD_BYTES} as sent; as compact JSON they may take up to twice that ({@code 1e-6} is written
 * {@code 0.000001}).
 *
 * <p>The encoder refuses exactly what the decoder would refuse ({@link #refusal} states the decoder's rules for a
 * mutation), so that nothing written is refused by recovery. A list of claims or sequences holds at least one and
 * is otherwise bounded only by the record's size ({@code Limits.MAX_DEAD_LETTERS_PER_CALL} keeps a redrive's far
 * below it; journals of earlier versions hold lists of up to {@link #MAX_BODY_BYTES} / 8 sequences).
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

    private static final byte ADDED = 1;
    private static final byte CANCELLED = 2;
    private static final byte EDITED = 3;
    private static final byte ADVANCED = 4;
    private static final byte RESET = 5;
    private static final byte SEQUENCES_RESERVED = 6;
    private static final byte CLOCK_CREATED = 7;
    private static final byte ON_CLOCK = 8;
    private static final byte CLOCK_DELETED = 9;
    private static final byte ADVANCED_FIRING = 10;
    private static final byte BATCH = 11;
    private static final byte CLOCK_CREATED_WITH_SETTINGS = 12;
    private static final byte CLOCK_CONFIGURED = 13;
    private static final byte DELIVERIES_SETTLED = 14;
    private static final byte CLAIMED = 15;
    private static final byte ACKED = 16;
    private static final byte NACKED = 17;
    private static final byte EXTENDED = 18;
    private static final byte REDRIVEN = 19;
    private static final byte DEAD_DELETED = 20;
    private static final byte LEASES_RENEWED = 21;
    private static final byte SAVED_DELIVERY = 22;
    private static final byte ACKED_ALL = 23;
    private static final byte PASSED = 24;
    private static final byte ON_WIDE_CLOCK = 25;
    private static final byte WIDE_CLOCK_CREATED = 26;
    private static final byte CLOCK_FORKED = 27;
    private static final byte CLOCK_FORKED_AT = 39;
    private static final byte REJECTED = 34;
    private static final byte CLOCK_LOADED = 38;
    private static final byte SCALED_CLOCK_CREATED = 42;
    private static final byte RATE_CHANGED = 43;

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
        if (!readable(d.state().ordinal(), d.attempt(), d.claim(), d.id())) {
            throw new IllegalArgumentException("a snapshot's delivery the journal could not read back: " + d);
        }
        int frameStart = out.length();
        out.skip(FRAME_HEADER_BYTES);
        int bodyStart = out.length();
        putDelivery(saved, out);
        return frame(out, frameStart, bodyStart);
    }

    /** A type-22 body: a delivery as a snapshot keeps it. */
    private static void putDelivery(SavedDelivery saved, GrowableBuffer out) {
        Delivery d = saved.delivery();
        out.putByte(SAVED_DELIVERY);
        out.putLong(d.sequence());
        out.putLong(d.fireTime());
        out.putInt(d.priority());
        out.putInt(d.attempt());
        out.putByte((byte) d.state().ordinal());
        out.putLong(d.leaseUntil());
        out.putLong(saved.leaseMillis());
        out.putLong(d.retryAt());
        out.putLong(d.readyAt());
        out.putString(d.id());
        out.putString(d.payload());
        out.putString(d.claim());
        out.putString(d.deadReason());
    }

    /** Decodes one snapshot delivery body (without the frame header). */
    static SavedDelivery decodeDelivery(ByteBuffer body) {
        SavedDelivery saved = getDelivery(body);
        if (body.hasRemaining()) {
            throw new CorruptRecordException("a snapshot's delivery of sequence " + saved.delivery().sequence()
                    + " has bytes left over");
        }
        return saved;
    }

    /** Reads one type-22 body, leaving the buffer after it. */
    private static SavedDelivery getDelivery(ByteBuffer body) {
        if (body.get() != SAVED_DELIVERY) {
            throw new CorruptRecordException("a snapshot's delivery frame holds another record");
        }
        long sequence = body.getLong();
        long fireTime = body.getLong();
        int priority = body.getInt();
        int attempt = body.getInt();
        int state = body.get();
        long leaseUntil = body.getLong();
        long leaseMillis = body.getLong();
        long retryAt = body.getLong();
        long readyAt = body.getLong();
        String id = getString(body);
        String payload = getString(body);
        String claim = getString(body);
        String deadReason = getString(body);
        if (!readable(state, attempt, claim, id)) {
            throw new CorruptRecordException("a snapshot's delivery of sequence " + sequence + " does not decode");
        }
        return new SavedDelivery(new Delivery(id, fireTime, priority, sequence, payload, attempt,
                Delivery.State.values()[state], claim, leaseUntil, retryAt, readyAt, deadReason), leaseMillis);
    }

    /** Whether a snapshot's delivery holds what recovery needs: a state, an attempt, a claim exactly in flight. */
    static boolean readable(int state, int attempt, String claim, String id) {
        return state >= 0 && state < Delivery.State.values().length && attempt >= 1
                && (state == Delivery.State.IN_FLIGHT.ordinal()) == (claim != null) && id != null;
    }

    private static GrowableBuffer frame(GrowableBuffer out, int frameStart, int bodyStart) {
        int bodyLength = out.length() - bodyStart;
        int limit = bodyLength > 0 && out.array()[bodyStart] == CLOCK_LOADED ? MAX_LOAD_BODY_BYTES : MAX_BODY_BYTES;
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

    private static void encodeBody(Mutation mutation, GrowableBuffer out) {
        if (mutation instanceof Mutation.OnClock on) {
            putClockNumber(on.clock(), ON_CLOCK, ON_WIDE_CLOCK, out);
            encodeBody(on.mutation(), out);
        } else if (mutation instanceof Mutation.ClockCreated created) {
            if (created.settings().isScaled()) {
                out.putByte(SCALED_CLOCK_CREATED);
                out.putLong(created.number());
            } else {
                putClockNumber(created.number(), CLOCK_CREATED_WITH_SETTINGS, WIDE_CLOCK_CREATED, out);
            }
            out.putLong(created.now());
            out.putLong(created.createdAtWallMillis());
            out.putLong(created.firstSequence());
            out.putString(created.name());
            putSettings(created.settings(), out);
        } else if (mutation instanceof Mutation.ClockForked forked) {
            out.putByte(CLOCK_FORKED_AT);
            out.putLong(forked.number());
            out.putLong(forked.source());
            out.putLong(forked.createdAtWallMillis());
            out.putLong(forked.lastSequence());
            out.putLong(forked.copiedAt());
            out.putString(forked.name());
        } else if (mutation instanceof Mutation.ClockLoaded loaded) {
            RecoveredSnapshot snapshot = loaded.snapshot();
            out.putByte(CLOCK_LOADED);
            out.putLong(loaded.number());
            out.putLong(loaded.createdAtWallMillis());
            out.putString(loaded.name());
            out.putLong(snapshot.now());
            out.putLong(snapshot.firedThrough());
            out.putLong(snapshot.lastSequence());
            putSettings(snapshot.settings(), out);
            out.putInt(snapshot.timers().size());
            for (Mutation.Added added : snapshot.timers()) {
                encodeBody(added, out);
            }
            out.putInt(snapshot.deliveries().size());
            for (SavedDelivery saved : snapshot.deliveries()) {
                putDelivery(saved, out);
            }
            ScheduleRecords.putSection(snapshot.schedules(), snapshot.deliveries(), out);
        } else if (mutation instanceof Mutation.ClockConfigured configured) {
            out.putByte(CLOCK_CONFIGURED);
            putSettings(configured.settings(), out);
        } else if (mutation instanceof Mutation.RateChanged changed) {
            out.putByte(RATE_CHANGED);
            out.putLong(changed.time().wallAnchor());
            out.putLong(changed.time().clockAnchor());
            out.putLong(changed.time().rate().millionths());
        } else if (mutation instanceof Mutation.DeliveriesSettled settled) {
            out.putByte(DELIVERIES_SETTLED);
            out.putLong(settled.now());
        } else if (mutation instanceof Mutation.Claimed claimed) {
            out.putByte(CLAIMED);
            out.putLong(claimed.now());
            out.putLong(claimed.leaseMillis());
            putClaims(claimed.claims(), out);
        } else if (mutation instanceof Mutation.Acked acked) {
            out.putByte(ACKED);
            out.putString(acked.claim());
        } else if (mutation instanceof Mutation.AckedAll acked) {
            out.putByte(ACKED_ALL);
            putClaims(acked.claims(), out);
        } else if (mutation instanceof Mutation.Nacked nacked) {
            out.putByte(NACKED);
            out.putString(nacked.claim());
            out.putLong(nacked.now());
            out.putLong(nacked.retryAt());
        } else if (mutation instanceof Mutation.Rejected rejected) {
            out.putByte(REJECTED);
            out.putString(rejected.claim());
            out.putString(rejected.reason());
        } else if (mutation instanceof Mutation.Extended extended) {
            out.putByte(EXTENDED);
            out.putString(extended.claim());
            out.putLong(extended.now());
            out.putLong(extended.leaseMillis());
        } else if (mutation instanceof Mutation.Redriven redriven) {
            out.putByte(REDRIVEN);
            out.putLong(redriven.now());
            putSequences(redriven.sequences(), out);
        } else if (mutation instanceof Mutation.DeadDeleted deleted) {
            out.putByte(DEAD_DELETED);
            putSequences(deleted.sequences(), out);
        } else if (mutation instanceof Mutation.LeasesRenewed renewed) {
            out.putByte(LEASES_RENEWED);
            out.putLong(renewed.now());
        } else if (mutation instanceof Mutation.ClockDeleted) {
            out.putByte(CLOCK_DELETED);
        } else if (mutation instanceof Mutation.Batch batch) {
            out.putByte(BATCH);
            out.putInt(batch.parts().size());
            for (Mutation part : batch.parts()) {
                encodeBody(part, out);
            }
        } else if (mutation instanceof Mutation.Added added) {
            Timer timer = added.timer();
            out.putByte(ADDED);
            out.putLong(timer.sequence());
            out.putLong(timer.fireTime());
            out.putInt(timer.priority());
            out.putLong(timer.version());
            out.putLong(timer.createdAt());
            out.putLong(added.createdAtWallMillis());
            out.putString(timer.id());
            out.putString(timer.payload());
        } else if (mutation instanceof Mutation.Cancelled cancelled) {
            out.putByte(CANCELLED);
            out.putLong(cancelled.sequence());
            out.putString(cancelled.id());
        } else if (mutation instanceof Mutation.Edited edited) {
            out.putByte(EDITED);
            out.putLong(edited.sequence());
            out.putLong(edited.fireTime());
            out.putInt(edited.priority());
            out.putLong(edited.version());
            out.putString(edited.id());
        } else if (mutation instanceof Mutation.Advanced advanced) {
            out.putByte(ADVANCED);
            out.putLong(advanced.now());
        } else if (mutation instanceof Mutation.AdvancedFiring firing) {
            out.putByte(ADVANCED_FIRING);
            out.putLong(firing.now());
            out.putInt(firing.count());
        } else if (mutation instanceof Mutation.Passed passed) {
            out.putByte(PASSED);
            out.putLong(passed.now());
        } else if (mutation instanceof Mutation.Reset) {
            out.putByte(RESET);
        } else if (mutation instanceof Mutation.SequencesReserved reserved) {
            out.putByte(SEQUENCES_RESERVED);
            out.putLong(reserved.upTo());
        } else if (mutation instanceof Mutation.ScheduleChange change) {
            ScheduleRecords.encode(change, out);
        } else {
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

    private static Mutation decodeBody(ByteBuffer body, boolean outermost) {
        byte type = body.get();
        return switch (type) {
            case ON_CLOCK, ON_WIDE_CLOCK -> {
                if (!outermost) {
                    throw new CorruptRecordException("a clock's record inside a clock's record");
                }
                long clock = getClockNumber(type == ON_WIDE_CLOCK, body);
                Mutation inner = decodeBody(body, false);
                if (inner instanceof Mutation.ClockCreated) {
                    throw new CorruptRecordException("a clock's record holds a clock creation");
                }
                yield new Mutation.OnClock(clock, inner);
            }
            case CLOCK_CREATED -> {
                if (!outermost) {
                    throw new CorruptRecordException("a clock's record holds a clock creation");
                }
                long number = getClockNumber(false, body);
                long now = body.getLong();
                long wall = body.getLong();
                long firstSequence = body.getLong();
                yield new Mutation.ClockCreated(number, getString(body), now, wall, firstSequence);
            }
            case CLOCK_CREATED_WITH_SETTINGS, WIDE_CLOCK_CREATED, SCALED_CLOCK_CREATED -> {
                if (!outermost) {
                    throw new CorruptRecordException("a clock's record holds a clock creation");
                }
                long number = getClockNumber(type != CLOCK_CREATED_WITH_SETTINGS, body);
                long now = body.getLong();
                long wall = body.getLong();
                long firstSequence = body.getLong();
                String name = getString(body);
                ClockSettings settings = getSettings(body);
                if (settings.isScaled() != (type == SCALED_CLOCK_CREATED)) {
                    throw new CorruptRecordException("a clock creation of type " + type + " with mode "
                            + settings.mode());
                }
                yield new Mutation.ClockCreated(number, name, now, wall, firstSequence, settings);
            }
            case CLOCK_FORKED, CLOCK_FORKED_AT -> {
                if (!outermost) {
                    throw new CorruptRecordException("a clock's record holds a clock's copy");
                }
                long number = body.getLong();
                long source = body.getLong();
                long wall = body.getLong();
                long lastSequence = body.getLong();
                long copiedAt = type == CLOCK_FORKED ? Mutation.ClockForked.UNKNOWN_TIME : body.getLong();
                if (type == CLOCK_FORKED_AT && copiedAt < 0) {
                    throw new CorruptRecordException("a clock's copy at time " + copiedAt);
                }
                yield new Mutation.ClockForked(number, requireString(getString(body), "name"), source, wall,
                        lastSequence, copiedAt);
            }
            case CLOCK_LOADED -> {
                if (!outermost) {
                    throw new CorruptRecordException("a clock's record holds a loaded clock");
                }
                yield getLoaded(body);
            }
            case CLOCK_CONFIGURED -> new Mutation.ClockConfigured(getSettings(body));
            case RATE_CHANGED -> {
                long wallAnchor = body.getLong();
                long clockAnchor = body.getLong();
                yield new Mutation.RateChanged(scaledTime(wallAnchor, clockAnchor, body.getLong()));
            }
            case DELIVERIES_SETTLED -> new Mutation.DeliveriesSettled(body.getLong());
            case CLAIMED -> {
                long now = body.getLong();
                long lease = body.getLong();
                yield new Mutation.Claimed(now, lease, getClaims(body));
            }
            case ACKED -> new Mutation.Acked(requireString(getString(body), "claim"));
            case ACKED_ALL -> new Mutation.AckedAll(getClaims(body));
            case NACKED -> new Mutation.Nacked(requireString(getString(body), "claim"), body.getLong(),
                    body.getLong());
            case EXTENDED -> new Mutation.Extended(requireString(getString(body), "claim"), body.getLong(),
                    body.getLong());
            case REJECTED -> new Mutation.Rejected(requireString(getString(body), "claim"),
                    requireString(getString(body), "reason"));
            case REDRIVEN -> {
                long now = body.getLong();
                yield new Mutation.Redriven(now, getSequences(body));
            }
            case DEAD_DELETED -> new Mutation.DeadDeleted(getSequences(body));
            case LEASES_RENEWED -> new Mutation.LeasesRenewed(body.getLong());
            case CLOCK_DELETED -> {
                if (outermost) {
                    throw new CorruptRecordException("a clock deletion outside a clock's record");
                }
                yield new Mutation.ClockDeleted();
            }
            case ADDED -> {
                long sequence = body.getLong();
                long fireTime = body.getLong();
                int priority = body.getInt();
                long version = body.getLong();
                long createdAt = body.getLong();
                long wall = body.getLong();
                String id = getString(body);
                String payload = getString(body);
                yield new Mutation.Added(new Timer(id, fireTime, priority, sequence, version, createdAt, payload),
                        wall);
            }
            case CANCELLED -> {
                long sequence = body.getLong();
                yield new Mutation.Cancelled(getString(body), sequence);
            }
            case EDITED -> {
                long sequence = body.getLong();
                long fireTime = body.getLong();
                int priority = body.getInt();
                long version = body.getLong();
                yield new Mutation.Edited(getString(body), sequence, fireTime, priority, version);
            }
            case BATCH -> {
                int count = body.getInt();
                if (count < 1 || count > MAX_BATCH_PARTS) {
                    throw new CorruptRecordException("a batch of " + count + " records");
                }
                List<Mutation> parts = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    Mutation part = decodeBody(body, false);
                    if (!isBatchPart(part)) {
                        throw new CorruptRecordException("a batch holds " + part);
                    }
                    parts.add(part);
                }
                yield new Mutation.Batch(parts);
            }
            case ADVANCED -> new Mutation.Advanced(body.getLong());
            case RESET -> new Mutation.Reset();
            case PASSED -> new Mutation.Passed(body.getLong());
            case ADVANCED_FIRING -> {
                long now = body.getLong();
                int count = body.getInt();
                if (count < 1) {
                    throw new CorruptRecordException("a bounded advance fires " + count + " timers");
                }
                yield new Mutation.AdvancedFiring(now, count);
            }
            case SEQUENCES_RESERVED -> new Mutation.SequencesReserved(body.getLong());
            default -> {
                if (!ScheduleRecords.isScheduleType(type)) {
                    throw new CorruptRecordException("unknown record type " + type);
                }
                yield ScheduleRecords.decode(type, body);
            }
        };
    }

    private static Mutation.ClockLoaded getLoaded(ByteBuffer body) {
        long number = body.getLong();
        long wall = body.getLong();
        String name = requireString(getString(body), "name");
        long now = body.getLong();
        long firedThrough = body.getLong();
        long lastSequence = body.getLong();
        ClockSettings settings = getSettings(body);
        int timerCount = body.getInt();
        if (timerCount < 0 || timerCount > body.remaining() / 54) {
            throw new CorruptRecordException("a loaded clock of " + timerCount + " timers, longer than its record");
        }
        List<Mutation.Added> timers = new ArrayList<>(timerCount);
        for (int i = 0; i < timerCount; i++) {
            if (!(decodeBody(body, false) instanceof Mutation.Added added) || added.timer().id() == null) {
                throw new CorruptRecordException("a loaded clock's timer " + i + " is not an add with an id");
            }
            timers.add(added);
        }
        int deliveryCount = body.getInt();
        if (deliveryCount < 0 || deliveryCount > body.remaining() / 70) {
            throw new CorruptRecordException("a loaded clock of " + deliveryCount + " deliveries, longer than its"
                    + " record");
        }
        List<SavedDelivery> deliveries = new ArrayList<>(deliveryCount);
        for (int i = 0; i < deliveryCount; i++) {
            deliveries.add(getDelivery(body));
        }
        ScheduleImage schedules = ScheduleImage.EMPTY;
        if (body.hasRemaining()) { // format 13 on: the schedules; before, the record ended with the deliveries
            ScheduleRecords.Section section = ScheduleRecords.getSection(body);
            schedules = section.image();
            deliveries = section.tag(deliveries);
        }
        return new Mutation.ClockLoaded(number, name, wall, new RecoveredSnapshot(now, lastSequence, lastSequence,
                timers, settings, deliveries, List.of(), firedThrough, null, schedules));
    }

    /** What a batch record may hold: adds, edits and cancels of its clock. */
    static boolean isBatchPart(Mutation part) {
        return part instanceof Mutation.Added || part instanceof Mutation.Edited || part instanceof Mutation.Cancelled;
    }

    /** A clock's number as {@code narrow} and a u32 when it fits one (every journal before version 7), else wide. */
    private static void putClockNumber(long number, byte narrow, byte wide, GrowableBuffer out) {
        if (number < 0) {
            throw new IllegalArgumentException("a clock's number must be >= 0: " + number);
        }
        if (number <= 0xFFFF_FFFFL) {
            out.putByte(narrow);
            out.putInt((int) number);
        } else {
            out.putByte(wide);
            out.putLong(number);
        }
    }

    /**
     * Reads what {@link #putClockNumber} wrote after the type. A u32 is unsigned: a version before 7 that numbered
     * past 2^31 - 1 wrapped to negative ints, which read as the numbers they stood for.
     */
    private static long getClockNumber(boolean wide, ByteBuffer body) {
        long number = wide ? body.getLong() : Integer.toUnsignedLong(body.getInt());
        if (number < 0) {
            throw new CorruptRecordException("a clock numbered " + number);
        }
        return number;
    }

    private static void putSettings(ClockSettings settings, GrowableBuffer out) {
        RetryPolicy retry = settings.retry();
        out.putByte((byte) settings.mode().ordinal());
        out.putByte((byte) settings.delivery().ordinal());
        out.putInt(retry.maxAttempts());
        out.putLong(retry.initialBackoffMillis());
        out.putLong(Double.doubleToLongBits(retry.multiplier()));
        out.putLong(retry.maxBackoffMillis());
        out.putLong(Double.doubleToLongBits(retry.jitter()));
        if (settings.isScaled()) {
            out.putLong(settings.rate().millionths());
        }
        PushTarget push = settings.push();
        if (push != null) {
            out.putString(push.url());
            out.putLong(push.timeoutMillis());
            out.putInt(push.concurrency());
            out.putInt(push.headers().size());
            for (Map.Entry<String, String> header : push.headers().entrySet()) {
                out.putString(header.getKey());
                out.putString(header.getValue());
            }
            out.putInt(push.secrets().size());
            for (String secret : push.secrets()) {
                out.putString(secret);
            }
        }
    }

    private static PushTarget getPushTarget(ByteBuffer body) {
        String url = requireString(getString(body), "push url");
        long timeout = body.getLong();
        int concurrency = body.getInt();
        int headerCount = body.getInt();
        if (headerCount < 0 || headerCount > PushTarget.MAX_HEADERS) {
            throw new CorruptRecordException("a push target with " + headerCount + " headers");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < headerCount; i++) {
            headers.put(requireString(getString(body), "header name"), requireString(getString(body), "header"));
        }
        int secretCount = body.getInt();
        if (secretCount < 0 || secretCount > PushTarget.MAX_SECRETS) {
            throw new CorruptRecordException("a push target with " + secretCount + " secrets");
        }
        List<String> secrets = new ArrayList<>(secretCount);
        for (int i = 0; i < secretCount; i++) {
            secrets.add(requireString(getString(body), "secret"));
        }
        return new PushTarget(url, timeout, concurrency, headers, secrets);
    }

    private static ScaledTime scaledTime(long wallAnchor, long clockAnchor, long millionths) {
        try {
            return new ScaledTime(wallAnchor, clockAnchor, new ClockRate(millionths));
        } catch (SchedulerException | IllegalArgumentException invalid) {
            throw new CorruptRecordException("a scaled time that does not validate: " + invalid.getMessage());
        }
    }

    private static ClockSettings getSettings(ByteBuffer body) {
        int mode = body.get();
        int delivery = body.get();
        if (mode < 0 || mode >= ClockSettings.Mode.values().length || delivery < 0
                || delivery >= ClockSettings.DeliveryMode.values().length) {
            throw new CorruptRecordException("clock settings of mode " + mode + " and delivery " + delivery);
        }
        try {
            RetryPolicy retry = new RetryPolicy(body.getInt(), body.getLong(), Double.longBitsToDouble(body.getLong()),
                    body.getLong(), Double.longBitsToDouble(body.getLong()));
            ClockSettings.Mode decoded = ClockSettings.Mode.values()[mode];
            ClockRate rate = decoded == ClockSettings.Mode.SCALED ? new ClockRate(body.getLong()) : null;
            ClockSettings.DeliveryMode deliveryMode = ClockSettings.DeliveryMode.values()[delivery];
            return new ClockSettings(decoded, deliveryMode, retry, rate,
                    deliveryMode == ClockSettings.DeliveryMode.PUSH ? getPushTarget(body) : null);
        } catch (SchedulerException invalid) {
            throw new CorruptRecordException("clock settings that do not validate: " + invalid.getMessage());
        }
    }

    private static void putClaims(List<String> claims, GrowableBuffer out) {
        out.putInt(claims.size());
        for (String claim : claims) {
            out.putString(claim);
        }
    }

    private static List<String> getClaims(ByteBuffer body) {
        int count = getCount(body, "claims", 4);
        List<String> claims = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            claims.add(requireString(getString(body), "claim"));
        }
        return claims;
    }

    private static void putSequences(List<Long> sequences, GrowableBuffer out) {
        out.putInt(sequences.size());
        for (long sequence : sequences) {
            out.putLong(sequence);
        }
    }

    private static List<Long> getSequences(ByteBuffer body) {
        int count = getCount(body, "sequences", Long.BYTES);
        List<Long> sequences = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            sequences.add(body.getLong());
        }
        return sequences;
    }

    /**
     * A list's count: at least one (as {@link RecordRefusals#countRefusal}), each element at least {@code bytesEach}
     * bytes.
     */
    private static int getCount(ByteBuffer body, String what, int bytesEach) {
        int count = body.getInt();
        String refused = RecordRefusals.countRefusal(count, what);
        if (refused != null || count > body.remaining() / bytesEach) {
            throw new CorruptRecordException(refused != null ? refused : "a list of " + count + " " + what
                    + " longer than its record");
        }
        return count;
    }

    private static String requireString(String value, String what) {
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
