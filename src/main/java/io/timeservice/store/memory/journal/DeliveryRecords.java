package io.timeservice.store.memory.journal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.Delivery;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.SavedDelivery;

/**
 * The journal bodies of deliveries, beside {@link RecordCodec}, which hands them here: settled, claimed, acked (one
 * or together), nacked, extended, rejected, redriven, dead deleted and leases renewed (fields and versions in
 * {@link RecordTag}), each alone or inside a clock's record; and a delivery as a snapshot or a loaded clock's record
 * keeps it (22). A list of claims or sequences holds at least one and is otherwise bounded only by the record's size.
 */
final class DeliveryRecords {

    private DeliveryRecords() {
    }

    /** Writes {@code mutation}'s body when it is of this family; whether it was. */
    static boolean encode(Mutation mutation, GrowableBuffer out) {
        if (mutation instanceof Mutation.DeliveriesSettled settled) {
            out.putByte(RecordTag.DELIVERIES_SETTLED.code);
            out.putLong(settled.now());
        } else if (mutation instanceof Mutation.Claimed claimed) {
            out.putByte(RecordTag.CLAIMED.code);
            out.putLong(claimed.now());
            out.putLong(claimed.leaseMillis());
            putClaims(claimed.claims(), out);
        } else if (mutation instanceof Mutation.FlowClaimed claimed) {
            out.putByte(RecordTag.FLOW_CLAIMED.code);
            out.putLong(claimed.now());
            out.putLong(claimed.leaseMillis());
            putClaims(claimed.claims(), out);
            putSequences(claimed.sequences(), out);
        } else if (mutation instanceof Mutation.Acked acked) {
            out.putByte(RecordTag.ACKED.code);
            out.putString(acked.claim());
        } else if (mutation instanceof Mutation.AckedAll acked) {
            out.putByte(RecordTag.ACKED_ALL.code);
            putClaims(acked.claims(), out);
        } else if (mutation instanceof Mutation.Nacked nacked) {
            out.putByte(RecordTag.NACKED.code);
            out.putString(nacked.claim());
            out.putLong(nacked.now());
            out.putLong(nacked.retryAt());
        } else if (mutation instanceof Mutation.Rejected rejected) {
            out.putByte(RecordTag.REJECTED.code);
            out.putString(rejected.claim());
            out.putString(rejected.reason());
        } else if (mutation instanceof Mutation.Extended extended) {
            out.putByte(RecordTag.EXTENDED.code);
            out.putString(extended.claim());
            out.putLong(extended.now());
            out.putLong(extended.leaseMillis());
        } else if (mutation instanceof Mutation.Redriven redriven) {
            out.putByte(RecordTag.REDRIVEN.code);
            out.putLong(redriven.now());
            putSequences(redriven.sequences(), out);
        } else if (mutation instanceof Mutation.DeadDeleted deleted) {
            out.putByte(RecordTag.DEAD_DELETED.code);
            putSequences(deleted.sequences(), out);
        } else if (mutation instanceof Mutation.LeasesRenewed renewed) {
            out.putByte(RecordTag.LEASES_RENEWED.code);
            out.putLong(renewed.now());
        } else {
            return false;
        }
        return true;
    }

    /** Decodes the body after its tag {@code tag}, one of this family's. */
    static Mutation decode(RecordTag tag, ByteBuffer body) {
        return switch (tag) {
            case DELIVERIES_SETTLED -> new Mutation.DeliveriesSettled(body.getLong());
            case CLAIMED -> {
                long now = body.getLong();
                long lease = body.getLong();
                yield new Mutation.Claimed(now, lease, getClaims(body));
            }
            case FLOW_CLAIMED -> {
                long now = body.getLong();
                long lease = body.getLong();
                List<String> claims = getClaims(body);
                List<Long> sequences = getSequences(body);
                if (claims.size() != sequences.size()) {
                    throw new RecordCodec.CorruptRecordException("a claim of " + sequences.size() + " deliveries with "
                            + claims.size() + " claims");
                }
                yield new Mutation.FlowClaimed(now, lease, claims, sequences);
            }
            case ACKED -> new Mutation.Acked(claim(body));
            case ACKED_ALL -> new Mutation.AckedAll(getClaims(body));
            case NACKED -> new Mutation.Nacked(claim(body), body.getLong(), body.getLong());
            case EXTENDED -> new Mutation.Extended(claim(body), body.getLong(), body.getLong());
            case REJECTED -> new Mutation.Rejected(claim(body),
                    RecordCodec.requireString(RecordCodec.getString(body), "reason"));
            case REDRIVEN -> {
                long now = body.getLong();
                yield new Mutation.Redriven(now, getSequences(body));
            }
            case DEAD_DELETED -> new Mutation.DeadDeleted(getSequences(body));
            case LEASES_RENEWED -> new Mutation.LeasesRenewed(body.getLong());
            // a snapshot's delivery frame: read by getDelivery, never a record of its own
            default -> throw new RecordCodec.CorruptRecordException("unknown record type " + tag.code);
        };
    }

    /** A type-22 body: a delivery as a snapshot keeps it. */
    static void putDelivery(SavedDelivery saved, GrowableBuffer out) {
        Delivery d = saved.delivery();
        out.putByte(RecordTag.withExtras(RecordTag.SAVED_DELIVERY, d.key(), d.traceContext()).code);
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
        if (d.key() != null) {
            out.putString(d.key());
        }
        if (d.traceContext() != null) {
            out.putString(d.traceContext());
        }
    }

    /** Reads one type-22 body, leaving the buffer after it. */
    static SavedDelivery getDelivery(ByteBuffer body) {
        RecordTag tag = RecordTag.of(body.get());
        if (tag != RecordTag.SAVED_DELIVERY && tag != RecordTag.KEYED_SAVED_DELIVERY
                && tag != RecordTag.TRACED_SAVED_DELIVERY && tag != RecordTag.KEYED_TRACED_SAVED_DELIVERY) {
            throw new RecordCodec.CorruptRecordException("a snapshot's delivery frame holds another record");
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
        String id = RecordCodec.getString(body);
        String payload = RecordCodec.getString(body);
        String claim = RecordCodec.getString(body);
        String deadReason = RecordCodec.getString(body);
        String key = tag.keyed() ? RecordCodec.requireString(RecordCodec.getString(body), "key") : null;
        String context = tag.traced() ? RecordCodec.getString(body) : null;
        if (!readable(state, attempt, claim, id)) {
            throw new RecordCodec.CorruptRecordException("a snapshot's delivery of sequence " + sequence
                    + " does not decode");
        }
        return new SavedDelivery(new Delivery(id, fireTime, priority, sequence, payload, attempt,
                Delivery.State.values()[state], claim, leaseUntil, retryAt, readyAt, deadReason, null, context, key),
                leaseMillis);
    }

    /** Whether a snapshot's delivery holds what recovery needs: a state, an attempt, a claim exactly in flight. */
    static boolean readable(int state, int attempt, String claim, String id) {
        return state >= 0 && state < Delivery.State.values().length && attempt >= 1
                && (state == Delivery.State.IN_FLIGHT.ordinal()) == (claim != null) && id != null;
    }

    private static String claim(ByteBuffer body) {
        return RecordCodec.requireString(RecordCodec.getString(body), "claim");
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
            claims.add(claim(body));
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
            throw new RecordCodec.CorruptRecordException(refused != null ? refused : "a list of " + count + " "
                    + what + " longer than its record");
        }
        return count;
    }
}
