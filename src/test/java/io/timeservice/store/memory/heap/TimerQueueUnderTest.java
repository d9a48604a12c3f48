package io.timeservice.store.memory.heap;


/**
 * The operations the benchmarks compare, over one pending-timer queue with unique ids and the service's firing order
 * (fireTime, priority, sequence) ascending. Each implementation assigns sequences itself from a counter that starts
 * at 1 and counts accepted adds, and keeps a timer's sequence on edit, so the same operations in the same order give
 * the same firing order in every implementation ({@code TimerQueueAdaptersTest} checks that).
 *
 * <p>Not thread-safe; single-threaded benchmarks and tests only.
 */
interface TimerQueueUnderTest {

    /** Adds a timer unless one with this id is pending; returns whether it was added. */
    boolean add(String id, long fireTime, int priority);

    /** Removes the pending timer with this id; returns whether there was one. */
    boolean cancel(String id);

    /** Gives the pending timer with this id a new fireTime and priority, keeping its sequence. */
    boolean edit(String id, long newFireTime, int newPriority);

    /** Removes and returns the id of the next timer if its fireTime is at or before {@code now}, else null. */
    String pollDue(long now);

    /**
     * Removes the next timers due at {@code now}, at most {@code into.length}, writes their ids into {@code into} in
     * firing order and returns how many: {@link #pollDue} in a loop unless the design fires in bulk.
     */
    default int drain(long now, String[] into) {
        int count = 0;
        for (String id; count < into.length && (id = pollDue(now)) != null; count++) {
            into[count] = id;
        }
        return count;
    }

    /** The id of the next timer to fire, or null when empty. */
    String peek();

    /** The next timer's fireTime, or {@link Long#MAX_VALUE} when empty. */
    long nextFireTime();

    /** The ids of the first {@code limit} pending timers in firing order. */
    String[] firstN(int limit);

    int size();

    /** A short name for reports. */
    String name();
}
