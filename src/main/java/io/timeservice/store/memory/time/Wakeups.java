package io.timeservice.store.memory.time;



/**
 * Where a running (system or scaled) clock says when it next needs a firing round: its earliest due timer, lease end
 * or retry. Called under that clock's lock, only with a time earlier than the one it said before (or after the firing
 * thread took its previous one), so the implementation keeps the earliest time per clock and must not call back into
 * any clock.
 */
public interface Wakeups {

    Wakeups NONE = (clock, wallMillis) -> {
    };

    void wakeAt(FiringRounds clock, long wallMillis);

    /**
     * Forgets {@code clock}: it was deleted, so it needs no round again and must not be kept reachable until its old
     * deadline. Called under that clock's lock, as {@link #wakeAt}.
     */
    default void forget(FiringRounds clock) {
    }
}
