package io.timeservice.model;

import java.util.Locale;

/**
 * What an add does when its id is pending or reserved ({@code onConflict}): {@link #ERROR} refuses it
 * ({@code duplicate_id}, the default); {@link #KEEP} (throttle) answers the pending timer or the reservation and
 * changes nothing; {@link #REPLACE} (debounce) gives a pending timer the add's due time, priority and payload,
 * keeping its id and sequence and counting one more version, and adds it when none is pending; a reserved id is
 * still refused.
 */
public enum OnConflict {
    ERROR, KEEP, REPLACE;

    /** The wire form's constant: {@code error}, {@code keep} or {@code replace}; null for null. */
    public static OnConflict of(String wire) {
        if (wire == null) {
            return ERROR;
        }
        for (OnConflict each : values()) {
            if (each.name().toLowerCase(Locale.ROOT).equals(wire)) {
                return each;
            }
        }
        throw new ProblemException(ErrorCode.INVALID_REQUEST, "onConflict must be \"error\", \"keep\" or"
                + " \"replace\", got \"" + wire + "\"");
    }
}
