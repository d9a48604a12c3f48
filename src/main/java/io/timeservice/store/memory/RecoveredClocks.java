package io.timeservice.store.memory;

import java.util.List;

/**
 * What recovery read from a snapshot of several clocks (see {@link ClocksState}).
 *
 * @param defaultClock the {@code default} clock's snapshot
 */
public record RecoveredClocks(RecoveredSnapshot defaultClock, List<Clock> clocks, long sequenceFloor,
                              long nextNumber) {

    /** A snapshot of the default clock alone (format versions before clocks). */
    public static RecoveredClocks of(RecoveredSnapshot single) {
        return new RecoveredClocks(single, List.of(), 0, 1);
    }

    public record Clock(long number, String name, long initialNow, long createdAtWallMillis,
                        RecoveredSnapshot state) {
    }
}
