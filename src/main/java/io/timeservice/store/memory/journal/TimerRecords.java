package io.timeservice.store.memory.journal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.Timer;
import io.timeservice.store.memory.Mutation;

/**
 * The journal bodies of a clock's timers and time, beside {@link RecordCodec}, which hands them here: added,
 * cancelled, edited, an atomic batch of those, advanced, a bounded advance, time passed, reset and sequences reserved
 * (fields and versions in {@link RecordTag}); each alone or inside a clock's record.
 */
final class TimerRecords {

    private TimerRecords() {
    }

    /** Writes {@code mutation}'s body when it is of this family; whether it was. */
    static boolean encode(Mutation mutation, GrowableBuffer out) {
        if (mutation instanceof Mutation.Added added) {
            putAdded(added, out);
        } else if (mutation instanceof Mutation.Cancelled cancelled) {
            out.putByte(RecordTag.CANCELLED.code);
            out.putLong(cancelled.sequence());
            out.putString(cancelled.id());
        } else if (mutation instanceof Mutation.Edited edited) {
            out.putByte(RecordTag.EDITED.code);
            out.putLong(edited.sequence());
            out.putLong(edited.fireTime());
            out.putInt(edited.priority());
            out.putLong(edited.version());
            out.putString(edited.id());
        } else if (mutation instanceof Mutation.Batch batch) {
            out.putByte(RecordTag.BATCH.code);
            out.putInt(batch.parts().size());
            for (Mutation part : batch.parts()) {
                RecordCodec.encodeBody(part, out);
            }
        } else if (mutation instanceof Mutation.Advanced advanced) {
            out.putByte(RecordTag.ADVANCED.code);
            out.putLong(advanced.now());
        } else if (mutation instanceof Mutation.AdvancedFiring firing) {
            out.putByte(RecordTag.ADVANCED_FIRING.code);
            out.putLong(firing.now());
            out.putInt(firing.count());
        } else if (mutation instanceof Mutation.Replaced replaced) {
            out.putByte(RecordTag.REPLACED.code);
            out.putLong(replaced.sequence());
            out.putLong(replaced.fireTime());
            out.putInt(replaced.priority());
            out.putLong(replaced.version());
            out.putString(replaced.id());
            out.putString(replaced.payload());
        } else if (mutation instanceof Mutation.ReservationReleased released) {
            out.putByte(RecordTag.RESERVATION_RELEASED.code);
            out.putString(released.id());
        } else if (mutation instanceof Mutation.Passed passed) {
            out.putByte(RecordTag.PASSED.code);
            out.putLong(passed.now());
        } else if (mutation instanceof Mutation.Reset) {
            out.putByte(RecordTag.RESET.code);
        } else if (mutation instanceof Mutation.SequencesReserved reserved) {
            out.putByte(RecordTag.SEQUENCES_RESERVED.code);
            out.putLong(reserved.upTo());
        } else {
            return false;
        }
        return true;
    }

    /** A type-1 body; also each timer of a loaded clock's record. */
    static void putAdded(Mutation.Added added, GrowableBuffer out) {
        Timer timer = added.timer();
        out.putByte(RecordTag.withExtras(RecordTag.ADDED, timer.key(), timer.traceContext()).code);
        out.putLong(timer.sequence());
        out.putLong(timer.fireTime());
        out.putInt(timer.priority());
        out.putLong(timer.version());
        out.putLong(timer.createdAt());
        out.putLong(added.createdAtWallMillis());
        out.putString(timer.id());
        out.putString(timer.payload());
        if (timer.key() != null) {
            out.putString(timer.key());
        }
        if (timer.traceContext() != null) {
            out.putString(timer.traceContext());
        }
    }

    /** Decodes the body after its tag {@code tag}, one of this family's. */
    static Mutation decode(RecordTag tag, ByteBuffer body) {
        return switch (tag) {
            case ADDED, KEYED_ADDED, TRACED_ADDED, KEYED_TRACED_ADDED -> {
                long sequence = body.getLong();
                long fireTime = body.getLong();
                int priority = body.getInt();
                long version = body.getLong();
                long createdAt = body.getLong();
                long wall = body.getLong();
                String id = RecordCodec.getString(body);
                String payload = RecordCodec.getString(body);
                String key = tag.keyed()
                        ? RecordCodec.requireString(RecordCodec.getString(body), "key") : null;
                String context = tag.traced() ? RecordCodec.getString(body) : null;
                yield new Mutation.Added(new Timer(id, fireTime, priority, sequence, version, createdAt, payload,
                        null, context, key), wall);
            }
            case CANCELLED -> {
                long sequence = body.getLong();
                yield new Mutation.Cancelled(RecordCodec.getString(body), sequence);
            }
            case EDITED -> {
                long sequence = body.getLong();
                long fireTime = body.getLong();
                int priority = body.getInt();
                long version = body.getLong();
                yield new Mutation.Edited(RecordCodec.getString(body), sequence, fireTime, priority, version);
            }
            case BATCH -> getBatch(body);
            case ADVANCED -> new Mutation.Advanced(body.getLong());
            case RESET -> new Mutation.Reset();
            case PASSED -> new Mutation.Passed(body.getLong());
            case REPLACED -> {
                long sequence = body.getLong();
                long fireTime = body.getLong();
                int priority = body.getInt();
                long version = body.getLong();
                String id = RecordCodec.requireString(RecordCodec.getString(body), "replaced id");
                yield new Mutation.Replaced(id, sequence, fireTime, priority, version, RecordCodec.getString(body));
            }
            case RESERVATION_RELEASED -> new Mutation.ReservationReleased(
                    RecordCodec.requireString(RecordCodec.getString(body), "reserved id"));
            case ADVANCED_FIRING -> {
                long now = body.getLong();
                int count = body.getInt();
                if (count < 1) {
                    throw new RecordCodec.CorruptRecordException("a bounded advance fires " + count + " timers");
                }
                yield new Mutation.AdvancedFiring(now, count);
            }
            case SEQUENCES_RESERVED -> new Mutation.SequencesReserved(body.getLong());
            default -> throw new IllegalArgumentException("not a timer record: " + tag);
        };
    }

    private static Mutation.Batch getBatch(ByteBuffer body) {
        int count = body.getInt();
        if (count < 1 || count > RecordCodec.MAX_BATCH_PARTS) {
            throw new RecordCodec.CorruptRecordException("a batch of " + count + " records");
        }
        List<Mutation> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Mutation part = RecordCodec.decodeBody(body, false);
            if (!isBatchPart(part)) {
                throw new RecordCodec.CorruptRecordException("a batch holds " + part);
            }
            parts.add(part);
        }
        return new Mutation.Batch(parts);
    }

    /**
     * What a batch record may hold: adds, edits and cancels of its clock, and replaces (a batch's add with
     * {@code onConflict: "replace"} of a pending id).
     */
    static boolean isBatchPart(Mutation part) {
        return part instanceof Mutation.Added || part instanceof Mutation.Edited || part instanceof Mutation.Cancelled
                || part instanceof Mutation.Replaced;
    }
}
