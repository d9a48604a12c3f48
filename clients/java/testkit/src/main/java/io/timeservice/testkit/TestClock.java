package io.timeservice.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Settings of the fresh virtual clock {@link TimeServiceExtension} gives a {@code ClockClient} parameter:
 * {@code @Test void retries(@TestClock(queued = true) ClockClient clock)}. Without it the clock starts at 0 and
 * answers what fires (it does not queue).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface TestClock {

    /** Where the virtual clock starts, in its milliseconds. */
    long start() default 0;

    /** True: fired timers also become deliveries for a {@code TimerWorker}. */
    boolean queued() default false;
}
