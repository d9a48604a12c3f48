package io.timeservice.store.postgres;

import java.util.UUID;

/**
 * One claimed delivery: a fired timer handed to a worker until {@code leaseUntil} (the clock's time: a virtual clock's
 * own, the database's clock in Unix epoch ms for a system clock). {@code claim} is the unguessable token that ack,
 * nack and extend must name; {@code sequence} tells two deliveries of one id apart; {@code attempt} counts from 1;
 * {@code readyAt} is when it last became ready (its fire time for a first attempt); {@code schedule} names the
 * schedule whose occurrence fired, null for a client's timer; {@code traceContext} the adding request's, or null;
 * {@code key} its timer's flow-control key, or null.
 */
public record ClaimedDelivery(String id, long fireTime, int priority, long sequence, String payload, int attempt,
                       UUID claim, long leaseUntil, long readyAt, String schedule, String traceContext, String key) {
}
