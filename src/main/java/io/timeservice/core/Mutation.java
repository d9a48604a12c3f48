package io.timeservice.core;

import java.util.List;

/**
 * One accepted change of scheduler state, as a {@link MutationLog} records it and recovery replays it. Replaying
 * the mutations in log order on the state they started from reproduces the state exactly: every record carries
 * absolute values (a fireTime, not a delay; the clock's new time, not an increment), and an advance's fired timers
 * follow from the state it is applied to.
 */
public sealed interface Mutation {

    /** A timer was added; {@code createdAtWallMillis} feeds the oldest-age metric after a restart. */
    record Added(Timer timer, long createdAtWallMillis) implements Mutation {
    }

    /** The pending timer {@code id}, generation {@code sequence}, was cancelled. */
    record Cancelled(String id, long sequence) implements Mutation {
    }

    /** The pending timer {@code id} now fires at {@code fireTime} with {@code priority}, at {@code version}. */
    record Edited(String id, long sequence, long fireTime, int priority, long version) implements Mutation {
    }

    /** The clock moved to {@code now}, firing every timer due by then. */
    record Advanced(long now) implements Mutation {
    }

    /**
     * A bounded advance that stopped at its limit: exactly the first {@code count} timers in firing order fired (all
     * due by {@code now}, the last fired one's fireTime) and the clock moved to {@code now}; timers due at
     * {@code now} after them stay pending, which {@link Advanced} could not say.
     */
    record AdvancedFiring(long now, int count) implements Mutation {
    }

    /** The demo reset: every timer forgotten, the clock back at 0, sequences continuing. */
    record Reset() implements Mutation {
    }

    /**
     * Sequences up to {@code upTo} may be handed out: recorded on disk before any of them is, whatever the fsync
     * policy, so that recovery continues after {@code upTo} even when the records that used them were lost.
     */
    record SequencesReserved(long upTo) implements Mutation {
    }

    /**
     * A record of the clock numbered {@code clock} (not the default clock, whose records stay bare): journaled by
     * that clock's view of the shared journal, dispatched back to it by recovery.
     */
    record OnClock(int clock, Mutation mutation) implements Mutation {
    }

    /**
     * A clock was created: {@code number} tags its records from now on; its time starts at {@code now} and its
     * sequences after {@code firstSequence}.
     */
    record ClockCreated(int number, String name, long now, long createdAtWallMillis, long firstSequence)
            implements Mutation {
    }

    /** The clock whose record this is was deleted, with every timer it held. */
    record ClockDeleted() implements Mutation {
    }

    /**
     * An atomic batch: its parts ({@link Added}, {@link Edited} and {@link Cancelled} only) were accepted together
     * and are replayed in order. One record, so a torn batch is wholly absent.
     */
    record Batch(List<Mutation> parts) implements Mutation {

        public Batch {
            parts = List.copyOf(parts);
        }
    }
}
