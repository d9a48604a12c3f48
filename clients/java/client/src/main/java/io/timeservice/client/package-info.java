/**
 * The Java client of TimeService: {@link io.timeservice.client.TimeServiceClient} connects, {@link
 * io.timeservice.client.ClockClient} schedules, edits, cancels and fires timers on one clock, handles its
 * deliveries, forks, saves and loads it, {@link io.timeservice.client.ScheduleClient} keeps its recurring schedules,
 * {@link io.timeservice.client.TimerWorker} runs a handler on every delivery of a queueing clock.
 * Thread-safe unless a class says otherwise; value types are immutable records; every refusal is an unchecked
 * {@link io.timeservice.client.TimeServiceException}.
 */
package io.timeservice.client;
