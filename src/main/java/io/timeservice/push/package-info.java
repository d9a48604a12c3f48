/**
 * Push delivery (issue 32): the {@link io.timeservice.push.Pusher} claims the deliveries of push clocks through the
 * {@link io.timeservice.store.DeliveryStore} port, as a worker would, POSTs each to its clock's target, signed as the
 * Standard Webhooks specification says ({@link io.timeservice.push.WebhookSignature}), and acknowledges, gives back or
 * dead-letters it by the answer. Retries, backoff, dead letters, counts, the journal and PostgreSQL leases are the
 * stores' own; this package adds only the HTTP side: a non-blocking client ({@link io.timeservice.push.PushClient},
 * Apache HttpClient 5's minimal client) whose DNS resolver refuses the addresses
 * {@link io.timeservice.model.PushTargetPolicy} does not allow, at every connection, which reads an answer's head and
 * body within bounds, and whose attempts end at their timeout by a periodic sweep
 * ({@link io.timeservice.push.AttemptDeadlines}) that closes their connections; a client whose I/O reactor died is
 * replaced. A target may be hostile: none can hold more than its clock's {@code concurrency} connections, each for its
 * timeout.
 *
 * <p>Imports {@code model} and {@code store} only (and no Spring): {@code config} wires it, {@code metrics} adapts
 * {@link io.timeservice.push.PushMetrics} to Micrometer.
 */
package io.timeservice.push;
