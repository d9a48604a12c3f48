package io.timeservice.store.postgres;

/**
 * A delivery whose last attempt failed: {@code attempts} were made, the last one ending at {@code diedAt} (the
 * database's clock, Unix epoch ms). {@code sequence} tells two deliveries of one id apart.
 */
public record DeadDelivery(String id, long fireTime, int priority, long sequence, String payload, int attempts,
                           long diedAt) {
}
