package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for an observed event with a deadline, checking every 10 ms: never a fixed sleep. */
final class Await {

    private Await() {
    }

    static void until(String what, Duration deadline, BooleanSupplier condition) {
        until(what, deadline, condition, () -> "");
    }

    /** Fails with {@code what} and the state {@code describe} gives when the condition is still false at the end. */
    static void until(String what, Duration deadline, BooleanSupplier condition, Supplier<?> describe) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("not within " + deadline + ": " + what + " " + describe.get());
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }
}
