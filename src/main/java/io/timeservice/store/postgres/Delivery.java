package io.timeservice.store.postgres;

import java.util.UUID;

/**
 * One claimed delivery: a fired timer handed to a worker until {@code leaseUntil} (the database's clock, Unix epoch
 * ms). {@code claim} is the unguessable token that ack, nack and extend must name; {@code sequence} tells two
 * deliveries of one id apart; {@code attempt} counts from 1.
 */
public record Delivery(String id, long fireTime, int priority, long sequence, String payload, int attempt,
                       UUID claim, long leaseUntil) {
}
