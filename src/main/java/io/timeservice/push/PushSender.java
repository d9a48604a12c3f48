package io.timeservice.push;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.timeservice.model.Delivery;
import io.timeservice.model.PushTarget;

/** Sends one attempt without blocking; the future never fails ({@link PushClient} is the real one). */
@FunctionalInterface
public interface PushSender {

    CompletableFuture<PushOutcome> post(PushTarget target, String webhookId, byte[] body);

    /** {@link #post(PushTarget, String, byte[])} with the attempt's trace headers ({@link PushAttempt#headers}). */
    default CompletableFuture<PushOutcome> post(PushTarget target, String webhookId, byte[] body,
                                                Map<String, String> traceHeaders) {
        return post(target, webhookId, body);
    }

    /**
     * The attempt of {@code delivery} of {@code clock}: by default its {@link PushBody} with the trace headers; a
     * sender that shapes requests itself (QStash messages, {@link QStashSender}) reads the delivery.
     */
    default CompletableFuture<PushOutcome> post(PushTarget target, String clock, Delivery delivery, String webhookId,
                                                Map<String, String> traceHeaders) {
        return post(target, webhookId, PushBody.of(clock, delivery), traceHeaders);
    }
}
