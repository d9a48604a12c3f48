/**
 * What both stores and the web layer speak: timers, deliveries, clocks' settings and views, batch operations,
 * preconditions, refusals ({@link io.timeservice.model.ErrorCode}, {@link io.timeservice.model.ProblemException}),
 * the one firing order ({@link io.timeservice.model.FiringOrder}) and the one rulebook: the fixed bounds
 * ({@link io.timeservice.model.Limits}) and every store-neutral refusal, by area
 * ({@link io.timeservice.model.TimerRules}, {@link io.timeservice.model.ClockRules},
 * {@link io.timeservice.model.DeliveryRules}, {@link io.timeservice.model.ScheduleRules},
 * {@link io.timeservice.model.TimeRules}). JDK only: imports nothing of the project and no library.
 */
package io.timeservice.model;
