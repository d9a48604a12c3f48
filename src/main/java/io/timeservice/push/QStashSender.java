package io.timeservice.push;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

import io.timeservice.model.Delivery;
import io.timeservice.model.PushTarget;
import io.timeservice.model.QStashMessage;
import io.timeservice.model.QStashRules;

/**
 * Sends QStash messages (issue 47) as QStash does, and hands every other push to the next sender. A QStash clock's
 * target is {@link QStashRules#PLACEHOLDER_URL}; its timers' payloads are the messages ({@link QStashMessage.Codec}).
 * Such a push goes to the message's URL with its method, headers and raw body, signed with {@code Upstash-Signature}
 * ({@link QStashSignature}, the current signing key) and carrying {@code Upstash-Message-Id} (the timer's id) and
 * {@code Upstash-Retried} (and a schedule's occurrence {@code Upstash-Schedule-Id}); the answer settles it as any push's. Thread-safe.
 */
public final class QStashSender extends ShapingSender {

    private final PushClient client;
    private final QStashMessage.Codec messages;
    private final String signingKey;
    private final LongSupplier wallClockMillis;

    /** Every other push goes to {@code next}; {@code signingKey} null or empty: messages leave unsigned. */
    public QStashSender(PushSender next, PushClient client, QStashMessage.Codec messages, String signingKey,
                        LongSupplier wallClockMillis) {
        super(next);
        this.client = client;
        this.messages = messages;
        this.signingKey = signingKey == null || signingKey.isEmpty() ? null : signingKey;
        this.wallClockMillis = wallClockMillis;
    }

    @Override
    boolean shapes(PushTarget target) {
        return QStashRules.PLACEHOLDER_URL.equals(target.url());
    }

    @Override
    CompletableFuture<PushOutcome> send(String clock, Delivery delivery, Map<String, String> traceHeaders) {
        QStashMessage message = messages.read(delivery.payload());
        if (message == null) {
            return CompletableFuture.completedFuture(PushOutcome.failed(PushOutcome.Kind.PROTOCOL_ERROR,
                    "not a QStash message: a timer on a QStash clock without its qstash payload"));
        }
        Map<String, String> headers = new LinkedHashMap<>(message.headers());
        headers.put("Upstash-Message-Id", delivery.id());
        headers.put("Upstash-Retried", Integer.toString(delivery.attempt() - 1));
        if (delivery.schedule() != null) {
            headers.put("Upstash-Schedule-Id", delivery.schedule());
        }
        if (signingKey != null) {
            headers.put("Upstash-Signature", QStashSignature.sign(signingKey, message.url(), message.body(),
                    Math.floorDiv(wallClockMillis.getAsLong(), 1000)));
        }
        headers.putAll(traceHeaders);
        return client.send(message.url(), message.method(), headers, message.body(), message.timeoutMillis());
    }
}
