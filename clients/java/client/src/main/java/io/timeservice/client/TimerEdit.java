package io.timeservice.client;

import java.time.Duration;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A change to a pending timer: a new delay (counted from the clock's now, not from the old fireTime), a new
 * priority, or both, optionally only if the timer is still at a given revision. Immutable:
 * {@code TimerEdit.delay(Duration.ofDays(7)).andPriority(-1).ifMatch(timer.etag())}.
 */
public record TimerEdit(Duration delay, Integer priority, String ifMatch) {

    public static TimerEdit delay(Duration delay) {
        return new TimerEdit(delay, null, null);
    }

    public static TimerEdit priority(int priority) {
        return new TimerEdit(null, priority, null);
    }

    public TimerEdit andDelay(Duration newDelay) {
        return new TimerEdit(newDelay, priority, ifMatch);
    }

    public TimerEdit andPriority(int newPriority) {
        return new TimerEdit(delay, newPriority, ifMatch);
    }

    /** Only if the timer's current revision is one of these entity tags ({@link Timer#etag()}), or {@code *}. */
    public TimerEdit ifMatch(String etag) {
        return new TimerEdit(delay, priority, etag);
    }

    ObjectNode json() {
        ObjectNode node = Json.object();
        if (delay != null) {
            node.put("delay", Json.millis(delay, "delay"));
        }
        if (priority != null) {
            node.put("priority", priority.intValue());
        }
        return node;
    }
}
