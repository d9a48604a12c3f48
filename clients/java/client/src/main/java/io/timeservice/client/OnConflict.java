package io.timeservice.client;

/**
 * What an add does when its id is pending, or reserved by the clock's dedupe window (docs/API.md, "Add-or-keep and
 * add-or-replace"): {@link #ERROR} refuses it ({@code duplicate_id}, the service's default), {@link #KEEP} (throttle)
 * keeps the pending timer or the reservation and changes nothing, {@link #REPLACE} (debounce) gives the pending timer
 * the add's due time, priority and payload; a reserved id is refused even then.
 */
public enum OnConflict {
    ERROR, KEEP, REPLACE;

    String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
