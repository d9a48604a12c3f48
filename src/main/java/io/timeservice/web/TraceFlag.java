package io.timeservice.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The {@code ?trace=} query flag of a change: false when absent or empty. Resolved by {@link RequestArguments} with
 * the values and refusals of {@code @RequestParam(defaultValue = "false") boolean}, without a data binder.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@interface TraceFlag {
}
