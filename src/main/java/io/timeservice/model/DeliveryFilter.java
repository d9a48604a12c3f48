package io.timeservice.model;

/**
 * Which deliveries of one clock a listing or a bulk action over dead letters takes: those in {@code state} whose id
 * starts with {@code idPrefix}, whose attempt is at least {@code minAttempt} and, for dead ones, whose reason contains
 * {@code reason} (each null: no condition). Both stores apply it as {@link #matches} does; the rulebook's
 * {@link DeliveryRules#requireFilter} refuses one out of range.
 *
 * @param state      the deliveries' state (never null)
 * @param idPrefix   the start of their ids, or null
 * @param minAttempt the lowest attempt, or null
 * @param reason     text their dead reason contains (dead ones only), or null
 */
public record DeliveryFilter(Delivery.State state, String idPrefix, Integer minAttempt, String reason) {

    /** Every delivery in {@code state}. */
    public static DeliveryFilter all(Delivery.State state) {
        return new DeliveryFilter(state, null, null, null);
    }

    /** Dead deliveries by the three conditions. */
    public static DeliveryFilter dead(String idPrefix, Integer minAttempt, String reason) {
        return new DeliveryFilter(Delivery.State.DEAD, idPrefix, minAttempt, reason);
    }

    /** Whether {@code delivery} is one this filter takes. */
    public boolean matches(Delivery delivery) {
        return delivery.state() == state && matches(delivery.id(), delivery.attempt(), delivery.deadReason());
    }

    /** Whether a delivery in this filter's state with these fields is one it takes. */
    public boolean matches(String id, int attempt, String deadReason) {
        return (idPrefix == null || id.startsWith(idPrefix))
                && (minAttempt == null || attempt >= minAttempt)
                && (reason == null || deadReason != null && deadReason.contains(reason));
    }
}
