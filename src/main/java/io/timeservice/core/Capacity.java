package io.timeservice.core;

/**
 * How much the queue may hold, in pending timers and in payload bytes, and how many payload bytes the pending timers
 * hold now. A timer's bytes are {@link #bytesOf}: O(1), so every add, cancel and fire keeps the total in a counter.
 *
 * <p>Invariant: {@code 0 <= pendingBytes}, the sum of {@link #bytesOf} over the pending timers. Not thread-safe: the
 * scheduler calls it only while holding its lock.
 */
final class Capacity {

    private final int timers;
    private final long bytes;
    private long pendingBytes;

    /** At most {@code timers} pending timers holding at most {@code bytes} payload bytes together. */
    Capacity(int timers, long bytes) {
        if (timers < 1) {
            throw new IllegalArgumentException("capacity must be >= 1: " + timers);
        }
        if (bytes < 1) {
            throw new IllegalArgumentException("capacityBytes must be >= 1: " + bytes);
        }
        this.timers = timers;
        this.bytes = bytes;
    }

    int timers() {
        return timers;
    }

    long bytes() {
        return bytes;
    }

    long pendingBytes() {
        return pendingBytes;
    }

    /** See {@link TimerScheduler#bytesOf}. */
    static long bytesOf(String id, String payload) {
        return (long) id.length() + (payload == null ? 0 : payload.length());
    }

    static long bytesOf(Timer timer) {
        return bytesOf(timer.id(), timer.payload());
    }

    /**
     * Refuses one more timer beside {@code pending} ones when it does not fit in either capacity; returns its bytes.
     *
     * @throws SchedulerException {@code capacity_exceeded}
     */
    long requireRoom(int pending, String id, String payload) {
        if (pending >= timers) {
            throw new SchedulerException(ErrorCode.CAPACITY_EXCEEDED,
                    "the queue holds its capacity of " + timers + " pending timers");
        }
        long needed = bytesOf(id, payload);
        if (needed > bytes - pendingBytes) {
            throw new SchedulerException(ErrorCode.CAPACITY_EXCEEDED, "the pending timers hold " + pendingBytes
                    + " of the queue's " + bytes + " payload bytes (capacity-bytes: id and payload"
                    + " characters); this timer needs " + needed);
        }
        return needed;
    }

    void added(long timerBytes) {
        pendingBytes += timerBytes;
    }

    void removed(Timer timer) {
        pendingBytes -= bytesOf(timer);
    }

    /** Starts over from {@code pending} bytes: 0 after a reset, the recovered total after recovery. */
    void holding(long pending) {
        pendingBytes = pending;
    }
}
