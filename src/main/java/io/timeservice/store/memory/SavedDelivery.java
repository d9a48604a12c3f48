package io.timeservice.store.memory;

import io.timeservice.model.Delivery;

/**
 * A delivery as a snapshot keeps it: besides what the API shows, the length of an in-flight lease (0 otherwise),
 * so that a restart can give every lease that was in flight its full length again.
 */
public record SavedDelivery(Delivery delivery, long leaseMillis) {
}
