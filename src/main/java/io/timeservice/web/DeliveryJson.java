package io.timeservice.web;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.timeservice.model.Delivery;

/**
 * A delivery as the API shows it. {@code payload} is the timer's JSON written back verbatim (absent when it had none);
 * {@code claim} and {@code leaseUntil} appear only in flight, {@code retryAt} only while waiting, {@code deadReason}
 * only when dead. A consumer deduplicates on {@code sequence}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record DeliveryJson(String id, long fireTime, int priority, long sequence, @JsonRawValue String payload,
                    int attempt, String state, String claim, Long leaseUntil, Long retryAt, long readyAt,
                    String deadReason) {

    static DeliveryJson of(Delivery delivery) {
        boolean inFlight = delivery.state() == Delivery.State.IN_FLIGHT;
        return new DeliveryJson(delivery.id(), delivery.fireTime(), delivery.priority(), delivery.sequence(),
                delivery.payload(), delivery.attempt(), ClocksController.lowerCase(delivery.state()),
                inFlight ? delivery.claim() : null, inFlight ? delivery.leaseUntil() : null,
                delivery.state() == Delivery.State.WAITING ? delivery.retryAt() : null, delivery.readyAt(),
                delivery.state() == Delivery.State.DEAD ? delivery.deadReason() : null);
    }

    static List<DeliveryJson> of(List<Delivery> deliveries) {
        return deliveries.stream().map(DeliveryJson::of).toList();
    }
}
