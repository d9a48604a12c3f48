package io.timeservice.client;

/**
 * What a {@link TimerWorker} does with each delivery. Returning normally acknowledges the delivery; throwing gives
 * it back (nack) for a retry, after {@link RetryLaterException#retryAfter()} when the exception is one, otherwise
 * after the clock's backoff. Delivery is at least once: a handler deduplicates on {@link Delivery#sequence()} where
 * running twice matters.
 */
@FunctionalInterface
public interface DeliveryHandler {

    void handle(Delivery delivery) throws Exception;
}
