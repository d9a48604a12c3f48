package io.timeservice.web;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.timeservice.model.Delivery;
import io.timeservice.model.Limits;
import io.timeservice.model.TraceContext;

/**
 * A delivery as the API shows it. {@code payload} is the timer's JSON written back verbatim (absent when it had none);
 * {@code claim} and {@code leaseUntil} appear only in flight, {@code retryAt} only while waiting, {@code deadReason}
 * only when dead. A consumer deduplicates on {@code (clock, sequence)}: the memory store numbers each clock's timers
 * on its own, so a sequence alone is unique only within its clock. {@code traceparent} and {@code tracestate} are the
 * W3C trace context of the request that added the timer (issue 46), so that a worker continues its trace; absent
 * when that request had none.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record DeliveryJson(String clock, String id, long fireTime, int priority, long sequence,
                    @JsonRawValue String payload, int attempt, String state, String claim, Long leaseUntil,
                    Long retryAt, long readyAt, String deadReason, String schedule, String traceparent,
                    String tracestate, String key) {

    /** @param clock the clock's name as the path gave it; null on the default clock's paths */
    static DeliveryJson of(String clock, Delivery delivery) {
        boolean inFlight = delivery.state() == Delivery.State.IN_FLIGHT;
        String context = delivery.traceContext();
        return new DeliveryJson(clock == null ? Limits.DEFAULT_CLOCK : clock, delivery.id(), delivery.fireTime(),
                delivery.priority(), delivery.sequence(), delivery.payload(), delivery.attempt(),
                ClockResourceController.lowerCase(delivery.state()),
                inFlight ? delivery.claim() : null, inFlight ? delivery.leaseUntil() : null,
                delivery.state() == Delivery.State.WAITING ? delivery.retryAt() : null, delivery.readyAt(),
                delivery.state() == Delivery.State.DEAD ? delivery.deadReason() : null, delivery.schedule(),
                context == null ? null : TraceContext.traceparent(context),
                context == null ? null : TraceContext.tracestate(context), delivery.key());
    }

    /** As {@link #of(String, List)} without the claims: a listing shows in-flight deliveries to readers too. */
    static List<DeliveryJson> listed(String clock, List<Delivery> deliveries) {
        return deliveries.stream().map(delivery -> {
            DeliveryJson shown = of(clock, delivery);
            return new DeliveryJson(shown.clock(), shown.id(), shown.fireTime(), shown.priority(), shown.sequence(),
                    shown.payload(), shown.attempt(), shown.state(), null, shown.leaseUntil(), shown.retryAt(),
                    shown.readyAt(), shown.deadReason(), shown.schedule(), shown.traceparent(), shown.tracestate(),
                    shown.key());
        }).toList();
    }

    static List<DeliveryJson> of(String clock, List<Delivery> deliveries) {
        return deliveries.stream().map(delivery -> of(clock, delivery)).toList();
    }
}
