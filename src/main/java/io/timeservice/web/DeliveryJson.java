package io.timeservice.web;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.timeservice.model.Delivery;
import io.timeservice.model.Limits;

/**
 * A delivery as the API shows it. {@code payload} is the timer's JSON written back verbatim (absent when it had none);
 * {@code claim} and {@code leaseUntil} appear only in flight, {@code retryAt} only while waiting, {@code deadReason}
 * only when dead. A consumer deduplicates on {@code (clock, sequence)}: the memory store numbers each clock's timers
 * on its own, so a sequence alone is unique only within its clock.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record DeliveryJson(String clock, String id, long fireTime, int priority, long sequence,
                    @JsonRawValue String payload, int attempt, String state, String claim, Long leaseUntil,
                    Long retryAt, long readyAt, String deadReason, String schedule, String key) {

    /** @param clock the clock's name as the path gave it; null on the default clock's paths */
    static DeliveryJson of(String clock, Delivery delivery) {
        boolean inFlight = delivery.state() == Delivery.State.IN_FLIGHT;
        return new DeliveryJson(clock == null ? Limits.DEFAULT_CLOCK : clock, delivery.id(), delivery.fireTime(),
                delivery.priority(), delivery.sequence(), delivery.payload(), delivery.attempt(),
                ClockResourceController.lowerCase(delivery.state()),
                inFlight ? delivery.claim() : null, inFlight ? delivery.leaseUntil() : null,
                delivery.state() == Delivery.State.WAITING ? delivery.retryAt() : null, delivery.readyAt(),
                delivery.state() == Delivery.State.DEAD ? delivery.deadReason() : null, delivery.schedule(),
                delivery.key());
    }

    static List<DeliveryJson> of(String clock, List<Delivery> deliveries) {
        return deliveries.stream().map(delivery -> of(clock, delivery)).toList();
    }
}
