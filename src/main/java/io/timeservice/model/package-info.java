/**
 * What both stores and the web layer speak: timers, deliveries, clocks' settings and views, batch operations,
 * preconditions, refusals ({@link io.timeservice.model.ErrorCode}, {@link io.timeservice.model.SchedulerException}),
 * the one firing order ({@link io.timeservice.model.FiringOrder}) and the one rulebook of fixed bounds
 * ({@link io.timeservice.model.Limits}) and form checks ({@link io.timeservice.model.Rules}). JDK only: imports
 * nothing of the project and no library.
 */
package io.timeservice.model;
