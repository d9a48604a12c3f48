package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Limits;
import io.timeservice.model.Timer;
import io.timeservice.store.memory.Mutation;
import org.junit.jupiter.api.Test;

/**
 * The encoder refuses exactly what recovery would refuse: seeded random records at and around every limit of the
 * format (list lengths, batch sizes, the record's size, records out of place, missing claims), each written without
 * the encoder's checks and read back. A record the encoder takes must read back equal; one it refuses must be one
 * the reader refuses. (A redrive of more than 1,000,000 sequences was written and then refused at the next start.)
 */
class RecordCodecLimitsTest {

    /** Sequences a redrive record holds at the record's size limit: type, now, count, then 8 bytes each. */
    private static final int SEQUENCES_AT_SIZE_LIMIT = (RecordCodec.MAX_BODY_BYTES - 1 - 8 - 4) / Long.BYTES;
    private static final int[] CLAIM_COUNTS = {-1, 0, 1, 2, Limits.MAX_CLAIM, Limits.MAX_CLAIM + 1};
    /** The lists up to the record's size limit (millions of sequences) are checked once each, below. */
    private static final int[] SEQUENCE_COUNTS = {-1, 0, 1, 2, Limits.MAX_DEAD_LETTERS_PER_CALL,
        Limits.MAX_DEAD_LETTERS_PER_CALL + 1};

    @Test
    void seededRandomRecordsAroundEveryLimit_encodeExactlyWhatDecodes() {
        for (long seed = 1; seed <= 10; seed++) {
            Random random = new Random(seed);
            for (int i = 0; i < 40; i++) {
                Mutation mutation = randomRecord(random, true);
                assertAgree(mutation, "seed " + seed + ", record " + i);
            }
        }
    }

    @Test
    void aRedriveOfMoreThanAMillionSequences_isReadBack() {
        // what the previous version wrote and then refused to read: recovery must take it
        List<Long> sequences = Collections.nCopies(1_000_001, 7L);
        Mutation redriven = new Mutation.OnClock(3, new Mutation.Redriven(5, sequences));
        assertThat(decoded(RecordCodec.encode(redriven, new GrowableBuffer(64)))).isEqualTo(redriven);
    }

    @Test
    void listsAtTheRecordsSizeLimit_encodeExactlyWhatDecodes() {
        for (int count : new int[] {SEQUENCES_AT_SIZE_LIMIT, SEQUENCES_AT_SIZE_LIMIT + 1}) {
            assertAgree(new Mutation.Redriven(9, Collections.nCopies(count, 3L)), count + " sequences");
        }
    }

    private static void assertAgree(Mutation mutation, String where) {
        Supplier<String> described = () -> where + ": " + describe(mutation);
        Mutation read;
        try {
            GrowableBuffer raw = RecordCodec.encodeUnchecked(mutation, new GrowableBuffer(64));
            read = raw.length() - RecordCodec.FRAME_HEADER_BYTES > RecordCodec.MAX_BODY_BYTES
                    ? null : decoded(raw); // the segment reader refuses a frame over the limit before decoding
        } catch (RuntimeException refused) {
            read = null;
        }
        Mutation encoded;
        try {
            encoded = decoded(RecordCodec.encode(mutation, new GrowableBuffer(64)));
        } catch (IllegalArgumentException refused) {
            encoded = null;
        }
        assertThat(encoded == null).as(() -> "the encoder refuses " + described.get() + " exactly when the reader"
                + " does").isEqualTo(read == null);
        if (read != null) {
            assertThat(read).as(described).isEqualTo(mutation);
            assertThat(encoded).as(described).isEqualTo(mutation);
        }
    }

    private static Mutation decoded(GrowableBuffer frame) {
        int length = ByteBuffer.wrap(frame.array(), 0, 4).getInt();
        return RecordCodec.decode(ByteBuffer.wrap(frame.array(), RecordCodec.FRAME_HEADER_BYTES, length).slice());
    }

    private static Mutation randomRecord(Random random, boolean outermost) {
        return switch (random.nextInt(outermost ? 16 : 14)) {
            case 0 -> new Mutation.Claimed(random.nextLong(), 1_000, list(random, CLAIM_COUNTS, i -> "c." + i));
            case 1 -> new Mutation.AckedAll(list(random, CLAIM_COUNTS, i -> "c." + i));
            case 2 -> new Mutation.Redriven(random.nextLong(), list(random, SEQUENCE_COUNTS, i -> (long) i));
            case 3 -> new Mutation.DeadDeleted(list(random, SEQUENCE_COUNTS, i -> Long.MAX_VALUE - i));
            case 4 -> new Mutation.Acked(random.nextInt(4) == 0 ? null : "c.0");
            case 5 -> new Mutation.Nacked(random.nextInt(4) == 0 ? null : "c.1", 5, Long.MAX_VALUE);
            case 6 -> new Mutation.Extended(random.nextInt(4) == 0 ? null : "c.2", 5, Limits.MAX_LEASE_MILLIS);
            case 7 -> new Mutation.AdvancedFiring(random.nextLong(), random.nextInt(5) - 2);
            case 8 -> new Mutation.ClockDeleted();
            case 9 -> new Mutation.ClockCreated(random.nextInt(), random.nextInt(4) == 0 ? null : "c", 0, 1, 2,
                    random.nextInt(4) == 0 ? null : ClockSettings.SYSTEM);
            case 10 -> new Mutation.ClockConfigured(random.nextInt(4) == 0 ? null : ClockSettings.VIRTUAL);
            case 11 -> batch(random);
            case 12 -> random.nextBoolean() ? new Mutation.Cancelled("a", 1) : new Mutation.Added(
                    new Timer("a", Long.MAX_VALUE, Integer.MIN_VALUE, 1, Timer.MAX_VERSION, 0, "{}"), 0);
            case 13 -> random.nextBoolean() ? new Mutation.Reset() : new Mutation.Advanced(random.nextLong());
            default -> new Mutation.OnClock(random.nextInt(), randomRecord(random, random.nextInt(8) == 0));
        };
    }

    /** A batch of 0 to just over the most parts, mostly adds, edits and cancels, sometimes something else. */
    private static Mutation batch(Random random) {
        int[] sizes = {0, 1, 2, RecordCodec.MAX_BATCH_PARTS, RecordCodec.MAX_BATCH_PARTS + 1};
        int size = sizes[random.nextInt(sizes.length)];
        List<Mutation> parts = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            parts.add(new Mutation.Edited("e" + i, i, i, 0, 2));
        }
        if (size > 0 && random.nextInt(3) == 0) {
            parts.set(random.nextInt(size), randomRecord(random, false));
        }
        return new Mutation.Batch(parts);
    }

    /** A list of one of the lengths around the limits, or now and then a short one. */
    private static <T> List<T> list(Random random, int[] lengths, Function<Integer, T> element) {
        int length = random.nextInt(4) != 0 ? lengths[random.nextInt(lengths.length)] : random.nextInt(3);
        if (length <= 0) {
            return List.of();
        }
        if (length > 10_000) {
            return Collections.nCopies(length, element.apply(1)); // one element many times: the bytes are the same
        }
        List<T> list = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            list.add(element.apply(i));
        }
        return list;
    }

    private static String describe(Mutation mutation) {
        String text = mutation.toString();
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
}
