package io.timeservice.store.memory;

import java.util.List;

/**
 * Every clock's state at one cut, for a snapshot: the default clock, the others in number order, and what the
 * registry needs to go on (the sequence floor for clocks created later, the next clock number).
 *
 * @param defaultClock  the {@code default} clock's state
 * @param clocks        every other clock
 * @param sequenceFloor every clock created after this cut starts its sequences after this
 * @param nextNumber    the number the next clock created gets
 */
public record ClocksState(ClockImage defaultClock, List<Clock> clocks, long sequenceFloor, long nextNumber) {

    /** A snapshot of one clock alone (no other clock). */
    public static ClocksState of(ClockImage single) {
        return new ClocksState(single, List.of(), 0, 1);
    }

    /** One clock besides the default one: its number, name, settings and state. */
    public record Clock(long number, String name, long initialNow, long createdAtWallMillis, ClockImage state) {
    }

    /** How long taking the cut held the locks: the pause a snapshot costs every operation. */
    public long copyNanos() {
        return defaultClock.copyNanos();
    }

    /** Pending timers over all clocks. */
    public long size() {
        long size = defaultClock.size();
        for (Clock clock : clocks) {
            size += clock.state().size();
        }
        return size;
    }
}
