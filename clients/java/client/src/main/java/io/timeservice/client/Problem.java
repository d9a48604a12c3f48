package io.timeservice.client;

/**
 * An RFC 9457 problem detail as the service answers every refusal, with its stable {@code code}
 * ({@code duplicate_id}, {@code timer_not_found}, ...; the catalogue is {@code ProblemCode} in the service's
 * {@code openapi.yaml}).
 *
 * @param type     {@code urn:timeservice:problem:<code>}
 * @param title    the HTTP status phrase
 * @param status   the HTTP status code
 * @param detail   what was wrong, naming the offending value
 * @param instance the request path
 * @param code     the machine-readable code
 * @param op       in answers to a batch, the index of the refused operation; otherwise null
 * @param member   in answers to a snapshot load, the JSON pointer of the refused member (e.g.
 *                 {@code /schedules/0/cron}); otherwise null
 */
public record Problem(String type, String title, int status, String detail, String instance, String code, Integer op,
                      String member) {
}
