package io.timeservice.client;

/**
 * What a {@link TimerWorker} has done so far; counts only grow.
 *
 * @param claimed   deliveries claimed
 * @param succeeded handler runs that returned normally
 * @param failed    handler runs that threw
 * @param acked     deliveries the service confirmed as acknowledged
 * @param nacked    deliveries given back after a failed handler run
 * @param extended  lease extensions the service granted
 * @param lost      deliveries whose claim no longer held the lease at an ack, nack or extension (they come again)
 * @param errors    requests that failed (the service refused them or could not be reached)
 */
public record WorkerStats(long claimed, long succeeded, long failed, long acked, long nacked, long extended, long lost,
                          long errors) {
}
