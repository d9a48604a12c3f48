package io.timeservice.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Settings of the fresh virtual clock {@link TimeServiceExtension} gives a {@code ClockClient} parameter:
 * {@code @Test void retries(@TestClock(queued = true) ClockClient clock)}. Without it the clock starts at 0 and
 * answers what fires (it does not queue). {@code @TestClock(snapshot = "order.json")} loads it from a fixture.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface TestClock {

    /** Where the virtual clock starts, in its milliseconds. */
    long start() default 0;

    /** True: fired timers also become deliveries for a {@code TimerWorker}. */
    boolean queued() default false;

    /**
     * A snapshot document on the class path to load the clock from (a fixture saved by {@code clock.snapshot()} or
     * written by hand), found as {@link Class#getResource} finds it from the test class; its time and settings are
     * the document's, so {@link #start()} and {@link #queued()} do not apply. Empty: a fresh clock.
     */
    String snapshot() default "";
}
