package io.timeservice.model;

import java.util.Map;

/**
 * A QStash message as its timer's payload holds it (issue 47): where, how and what the pusher sends when it fires.
 *
 * @param url           the destination, a checked push target URL
 * @param method        the HTTP method ({@code Upstash-Method})
 * @param timeoutMillis one attempt's timeout ({@code Upstash-Timeout})
 * @param headers       the forwarded headers, {@code Content-Type} included when the publish had one
 * @param body          the body as published
 */
public record QStashMessage(String url, String method, long timeoutMillis, Map<String, String> headers, byte[] body) {

    public QStashMessage {
        headers = Map.copyOf(headers);
    }

    /** Turns a message into a timer's payload (JSON text) and back; the web layer's JSON does it. */
    public interface Codec {

        String write(QStashMessage message);

        /** The message in {@code payload}, or null when it holds none (a timer not added by a publish). */
        QStashMessage read(String payload);
    }
}
