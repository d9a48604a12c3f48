package io.timeservice.push;

import java.util.concurrent.CompletableFuture;

import io.timeservice.model.PushTarget;

/** Sends one attempt without blocking; the future never fails ({@link PushClient} is the real one). */
@FunctionalInterface
public interface PushSender {

    CompletableFuture<PushOutcome> post(PushTarget target, String webhookId, byte[] body);
}
