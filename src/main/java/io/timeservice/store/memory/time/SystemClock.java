package io.timeservice.store.memory.time;

import java.util.function.LongSupplier;

/**
 * Real time: Unix epoch milliseconds from the wall clock, never moving back ({@link RunningClock}).
 *
 * <p>Not thread-safe: its {@code MemoryClock} calls it only while holding its lock.
 */
public final class SystemClock extends RunningClock {

    private final LongSupplier wallMillis;

    public SystemClock(LongSupplier wallMillis) {
        super(0);
        this.wallMillis = wallMillis;
    }

    @Override
    long reading() {
        return wallMillis.getAsLong();
    }
}
