package io.timeservice.model;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An id a clock keeps reserved after its timer left the pending set, for the clock's dedupe window
 * ({@link ClockSettings#dedupeWindowMillis()}): an add of it is refused {@code duplicate_id} with this as the
 * problem's {@code previous} member.
 *
 * @param id       the timer's id
 * @param state    how the timer left: fired (a queueing clock's delivery is still in its queue, or the clock answers
 *                 advances), acknowledged, dead (its dead letter deleted) or cancelled
 * @param time     the clock time its window counts from: the fireTime of a fired timer, else the clock's time when
 *                 it was acknowledged, deleted or cancelled
 * @param sequence the timer's sequence
 */
public record Reservation(String id, State state, long time, long sequence) {

    /** How the reserved id's timer left the pending set. Ordinals are written in the journal: add at the end. */
    public enum State {
        FIRED, ACKNOWLEDGED, DEAD, CANCELLED;

        /** The wire form: {@code fired}, {@code acknowledged}, ... */
        public String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The problem's {@code previous} member: state, time and sequence. */
    public Map<String, Object> asMember() {
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("state", state.code());
        member.put("time", time);
        member.put("sequence", sequence);
        return member;
    }
}
