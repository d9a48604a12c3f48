package io.timeservice.model;



/**
 * An immutable snapshot of one pending (or just fired or cancelled) timer, taken while the scheduler lock was held.
 *
 * @param id        the caller's handle, unique among pending timers
 * @param fireTime  the virtual time at which the timer is due
 * @param priority  the second key of the firing order; smaller fires first
 * @param sequence  the third key: strictly increasing per accepted add, never reused; kept on edit
 * @param version   1 at creation, +1 on every successful edit, at most {@link #MAX_VERSION}
 * @param createdAt the virtual time at which the timer was added
 * @param payload   the caller's opaque payload text, or {@code null}
 * @param schedule  the id of the schedule whose occurrence this timer is, or {@code null} for a client's timer
 * @param traceContext the W3C trace context of the request that added it ({@link TraceContext}), or {@code null}
 * @param key       the flow-control key its deliveries are limited under ({@link TimerRules#requireValidKey}), or
 *                  {@code null}: every timer without one shares the empty key
 */
public record Timer(String id, long fireTime, int priority, long sequence, long version, long createdAt,
                    String payload, String schedule, String traceContext, String key) {

    /**
     * The most edits a timer can count: the heap keeps each version in an {@code int} (a {@code long} would add 4 bytes
     * to every pending timer's record), so the bound is explicit rather than a silent wrap. An edit of a timer at
     * this version is refused ({@code version_limit_reached}); journals and entity tags carry the value as a long,
     * and no timer beyond it can be built (a journal naming one does not load).
     */
    public static final long MAX_VERSION = Integer.MAX_VALUE;

    public Timer {
        if (version > MAX_VERSION) {
            throw new IllegalArgumentException("version of timer " + id + " must be at most " + MAX_VERSION
                    + ": " + version);
        }
    }

    /** A timer without a trace context or a flow-control key. */
    public Timer(String id, long fireTime, int priority, long sequence, long version, long createdAt, String payload,
                 String schedule) {
        this(id, fireTime, priority, sequence, version, createdAt, payload, schedule, null, null);
    }

    /** A timer without a flow-control key. */
    public Timer(String id, long fireTime, int priority, long sequence, long version, long createdAt, String payload,
                 String schedule, String traceContext) {
        this(id, fireTime, priority, sequence, version, createdAt, payload, schedule, traceContext, null);
    }
    /** A client's timer, no schedule's occurrence. */
    public Timer(String id, long fireTime, int priority, long sequence, long version, long createdAt, String payload) {
        this(id, fireTime, priority, sequence, version, createdAt, payload, null);
    }

    /** This timer as an occurrence of schedule {@code scheduleId}. */
    public Timer ofSchedule(String scheduleId) {
        return new Timer(id, fireTime, priority, sequence, version, createdAt, payload, scheduleId, traceContext, key);
    }

    /** This timer with the trace context {@code context} (null: none). */
    public Timer withTraceContext(String context) {
        return new Timer(id, fireTime, priority, sequence, version, createdAt, payload, schedule, context, key);
    }

    /** This timer under the flow-control key {@code flowKey} (null: none). */
    public Timer withKey(String flowKey) {
        return new Timer(id, fireTime, priority, sequence, version, createdAt, payload, schedule, traceContext,
                flowKey);
    }

    /** Firing order: fireTime, then priority, then sequence, each ascending. */
    public static int compareFiringOrder(Timer a, Timer b) {
        return FiringOrder.compare(a.fireTime, a.priority, a.sequence, b.fireTime, b.priority, b.sequence);
    }

    /** The revision that an HTTP entity tag names: a timer's generation (sequence) and its edit count. */
    public Revision revision() {
        return new Revision(sequence, version);
    }
}
