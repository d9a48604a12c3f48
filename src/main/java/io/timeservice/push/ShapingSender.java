package io.timeservice.push;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.timeservice.model.Delivery;
import io.timeservice.model.PushTarget;

/**
 * A sender that shapes the requests of some deliveries itself (a drop-in API's: {@link QStashSender},
 * {@link CloudTasksSender}) and hands every other push, unchanged, to the next sender in the chain. Thread-safe
 * when its subclass is.
 */
abstract class ShapingSender implements PushSender {

    private final PushSender next;

    ShapingSender(PushSender next) {
        this.next = next;
    }

    /** Whether this sender shapes the deliveries of a clock pushing to {@code target}. */
    abstract boolean shapes(PushTarget target);

    /** The attempt of {@code delivery}, for a target that {@link #shapes} says is this sender's. */
    abstract CompletableFuture<PushOutcome> send(String clock, Delivery delivery, Map<String, String> traceHeaders);

    @Override
    public final CompletableFuture<PushOutcome> post(PushTarget target, String webhookId, byte[] body) {
        return next.post(target, webhookId, body);
    }

    @Override
    public final CompletableFuture<PushOutcome> post(PushTarget target, String webhookId, byte[] body,
                                                     Map<String, String> traceHeaders) {
        return next.post(target, webhookId, body, traceHeaders);
    }

    @Override
    public final CompletableFuture<PushOutcome> post(PushTarget target, String clock, Delivery delivery,
                                                     String webhookId, Map<String, String> traceHeaders) {
        return shapes(target) ? send(clock, delivery, traceHeaders)
                : next.post(target, clock, delivery, webhookId, traceHeaders);
    }
}
