package io.timeservice.model;

/**
 * Which deliveries of one clock a listing or a bulk action over dead letters takes: those in {@code state} whose id
 * starts with {@code idPrefix}, whose attempt is at least {@code minAttempt} and, for dead ones, whose reason contains
 * {@code reason} and that died at or after {@code deadSince} (each null: no condition). Both stores apply it as
 * {@link #matches} does; the rulebook's {@link DeliveryRules#requireFilter} refuses one out of range.
 *
 * <p>A dead delivery's {@link Delivery#readyAt} is when it died, in the clock's time: a nack on the last attempt at
 * the nack's time, a lease ended on the last attempt at the lease's end, a delivery rejected (a push target's 410) at
 * the end of the lease it was rejected in (so that the memory store's journal, whose record of a rejection holds no
 * time, recovers the same value).
 *
 * @param state      the deliveries' state (never null)
 * @param idPrefix   the start of their ids, or null
 * @param minAttempt the lowest attempt, or null
 * @param reason     text their dead reason contains (dead ones only), or null
 * @param deadSince  the earliest time of death, clock milliseconds (dead ones only), or null
 */
public record DeliveryFilter(Delivery.State state, String idPrefix, Integer minAttempt, String reason,
                             Long deadSince) {

    /** A filter without a time of death. */
    public DeliveryFilter(Delivery.State state, String idPrefix, Integer minAttempt, String reason) {
        this(state, idPrefix, minAttempt, reason, null);
    }

    /** Every delivery in {@code state}. */
    public static DeliveryFilter all(Delivery.State state) {
        return new DeliveryFilter(state, null, null, null, null);
    }

    /** Dead deliveries by the three conditions. */
    public static DeliveryFilter dead(String idPrefix, Integer minAttempt, String reason) {
        return new DeliveryFilter(Delivery.State.DEAD, idPrefix, minAttempt, reason, null);
    }

    /** Dead deliveries by the four conditions. */
    public static DeliveryFilter dead(String idPrefix, Integer minAttempt, String reason, Long deadSince) {
        return new DeliveryFilter(Delivery.State.DEAD, idPrefix, minAttempt, reason, deadSince);
    }

    /** Whether {@code delivery} is one this filter takes. */
    public boolean matches(Delivery delivery) {
        return delivery.state() == state
                && matches(delivery.id(), delivery.attempt(), delivery.deadReason(), delivery.readyAt());
    }

    /**
     * Whether a delivery in this filter's state with these fields is one it takes ({@code readyAt}: a dead one's time
     * of death).
     */
    public boolean matches(String id, int attempt, String deadReason, long readyAt) {
        return (idPrefix == null || id.startsWith(idPrefix))
                && (minAttempt == null || attempt >= minAttempt)
                && (reason == null || deadReason != null && deadReason.contains(reason))
                && (deadSince == null || state == Delivery.State.DEAD && readyAt >= deadSince);
    }
}
