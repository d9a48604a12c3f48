package io.timeservice.client;

import java.time.Duration;
import java.util.function.IntFunction;

/** Adds many timers in batches of 1,000, the most one batch holds. */
final class ManyTimers {

    private ManyTimers() {
    }

    /** Adds {@code prefix + i} for i in [0, count), due {@code delay.apply(i)} from now. */
    static void add(ClockClient clock, String prefix, int count, IntFunction<Duration> delay) {
        for (int start = 0; start < count; start += 1000) {
            TimerBatch batch = clock.batch();
            for (int i = start; i < Math.min(count, start + 1000); i++) {
                batch.add(prefix + i, delay.apply(i));
            }
            batch.commit();
        }
    }
}
