/**
 * The Java client of TimeService: {@link io.timeservice.client.TimeServiceClient} connects, {@link
 * io.timeservice.client.ClockClient} schedules, edits, cancels and fires timers on one clock and handles its
 * deliveries, {@link io.timeservice.client.TimerWorker} runs a handler on every delivery of a queueing clock.
 * Thread-safe unless a class says otherwise; value types are immutable records; every refusal is an unchecked
 * {@link io.timeservice.client.TimeServiceException}.
 */
package io.timeservice.client;
