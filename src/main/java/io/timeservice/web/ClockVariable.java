package io.timeservice.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The optional {@code {clock}} path variable of a path that exists for the default clock and for every named clock
 * ({@code /timers} and {@code /clocks/{clock}/timers}): null on the default clock's path. Resolved by
 * {@link RequestArguments} as {@code @PathVariable(required = false) String} would be, without a data binder.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@interface ClockVariable {
}
