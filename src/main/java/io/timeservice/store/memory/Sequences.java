package io.timeservice.store.memory;


/**
 * The sequence counter of adds and its reservations on disk. Sequences are handed out strictly increasing, never
 * twice, crashes included: before {@code last + 1} is handed out it must lie within a block reserved by a forced
 * journal record ({@link Mutation.SequencesReserved}), and recovery continues after the whole reserved block, so a
 * crash that loses the adds' own records cannot make it issue their sequences again (an entity tag names one timer
 * forever). One forced write per {@value #RESERVATION} adds and per start-up.
 *
 * <p>Invariant: {@code last <= reserved}. Not thread-safe: the clock calls it only while holding its lock.
 */
final class Sequences {

    /** Sequences reserved on disk at a time. */
    static final long RESERVATION = 1_000_000;

    /** The last sequence handed out; the next add gets last + 1. */
    private long last;
    /** Sequences up to this are reserved on disk. */
    private long reserved;

    long last() {
        return last;
    }

    long reserved() {
        return reserved;
    }

    /**
     * The sequence the next add gets, its block reserved on disk first if need be (forced whatever the fsync policy).
     * Throws, with nothing changed here, if the log cannot force the reservation. Does not hand it out: see
     * {@link #issued}.
     */
    long reserveNext(MutationLog log) {
        if (last >= reserved) {
            long upTo = last + RESERVATION;
            log.appendForced(new Mutation.SequencesReserved(upTo));
            reserved = upTo;
        }
        return last + 1;
    }

    /**
     * As {@link #reserveNext(MutationLog)} for {@code count} adds at once ({@code count <= }{@value #RESERVATION}):
     * sequences up to {@code last + count} are reserved on disk before this returns {@code last + 1}.
     */
    long reserveNext(MutationLog log, int count) {
        if (last + count > reserved) {
            long upTo = last + RESERVATION;
            log.appendForced(new Mutation.SequencesReserved(upTo));
            reserved = upTo;
        }
        return last + 1;
    }

    /** Records that {@code sequence}, from {@link #reserveNext}, has been handed out. */
    void issued(long sequence) {
        last = sequence;
    }

    /**
     * A new clock's sequences start after {@code floor} (the highest sequence any deleted clock may have issued),
     * so no entity tag of a deleted clock matches a timer of a clock re-created under its name.
     */
    void startAfter(long floor) {
        last = Math.max(last, floor);
        reserved = Math.max(reserved, last);
    }

    /** The highest sequence this counter may have handed out, crashes included. */
    long highestPossible() {
        return Math.max(last, reserved);
    }

    /** Continues after what recovery found: sequences up to the reservation may be in records a crash lost. */
    void recovered(long lastSequence, long reservedSequences) {
        last = Math.max(lastSequence, reservedSequences);
        reserved = last;
    }
}
