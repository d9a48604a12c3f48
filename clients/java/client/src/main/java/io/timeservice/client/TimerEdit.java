package io.timeservice.client;

import java.time.Duration;
import java.time.Instant;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A change to a pending timer: a new delay (counted from the clock's now, not from the old fireTime) or a new clock
 * time {@code at} (now when it is not after now), a new priority, or both, optionally only if the timer is still at a
 * given revision. Immutable: {@code TimerEdit.delay(Duration.ofDays(7)).andPriority(-1).ifMatch(timer.etag())}.
 * A delay and an at together are the caller's mistake ({@link IllegalArgumentException} when sent).
 */
public record TimerEdit(Duration delay, Instant at, Integer priority, String ifMatch) {

    public static TimerEdit delay(Duration delay) {
        return new TimerEdit(delay, null, null, null);
    }

    /** Due at the clock time {@code at}; the service reads its now and moves the timer in one step. */
    public static TimerEdit at(Instant at) {
        return new TimerEdit(null, at, null, null);
    }

    public static TimerEdit priority(int priority) {
        return new TimerEdit(null, null, priority, null);
    }

    public TimerEdit andDelay(Duration newDelay) {
        return new TimerEdit(newDelay, at, priority, ifMatch);
    }

    public TimerEdit andPriority(int newPriority) {
        return new TimerEdit(delay, at, newPriority, ifMatch);
    }

    /** Only if the timer's current revision is one of these entity tags ({@link Timer#etag()}), or {@code *}. */
    public TimerEdit ifMatch(String etag) {
        return new TimerEdit(delay, at, priority, etag);
    }

    ObjectNode json() {
        if (delay != null && at != null) {
            throw new IllegalArgumentException("an edit names a delay or an at, not both: " + delay + ", " + at);
        }
        ObjectNode node = Json.object();
        if (delay != null) {
            node.put("delay", Json.millis(delay, "delay"));
        }
        if (at != null) {
            node.put("at", at.toEpochMilli());
        }
        if (priority != null) {
            node.put("priority", priority.intValue());
        }
        return node;
    }
}
