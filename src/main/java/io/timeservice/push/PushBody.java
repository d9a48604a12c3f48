package io.timeservice.push;

import java.nio.charset.StandardCharsets;

import io.timeservice.model.Delivery;

/**
 * The JSON a push POSTs: the delivery as a worker's claim shows it, plus its clock ({@code clock}, {@code id},
 * {@code fireTime}, {@code priority}, {@code sequence}, {@code attempt}, {@code payload}, the latter as stored: JSON
 * text or absent as null), then {@code schedule}, the id of the schedule whose occurrence it is (only then: a client's
 * timer has no such member, so a receiver tells the two apart without parsing the occurrence's id), and its
 * {@code webhook-id}, {@code <clock>:<sequence>} — stable across retries, unique in the service (a sequence is never
 * reused, and a forked clock's copy has its own clock name) — or, over a store that forgets its sequences at a restart
 * (the memory store without a journal), {@code <clock>:<sequence>:<instance>}, the tag of the service's start.
 */
final class PushBody {

    private PushBody() {
    }

    /** The delivery's webhook-id; {@code instance} is the start's tag, or null where sequences outlive a restart. */
    static String webhookId(String clock, Delivery delivery, String instance) {
        return instance == null ? clock + ":" + delivery.sequence() : clock + ":" + delivery.sequence() + ":" + instance;
    }

    static byte[] of(String clock, Delivery delivery) {
        StringBuilder json = new StringBuilder(128 + (delivery.payload() == null ? 4 : delivery.payload().length()));
        json.append("{\"clock\":");
        quote(clock, json);
        json.append(",\"id\":");
        quote(delivery.id(), json);
        json.append(",\"fireTime\":").append(delivery.fireTime())
                .append(",\"priority\":").append(delivery.priority())
                .append(",\"sequence\":").append(delivery.sequence())
                .append(",\"attempt\":").append(delivery.attempt())
                .append(",\"payload\":").append(delivery.payload() == null ? "null" : delivery.payload());
        if (delivery.schedule() != null) {
            json.append(",\"schedule\":");
            quote(delivery.schedule(), json);
        }
        if (delivery.key() != null) {
            json.append(",\"key\":");
            quote(delivery.key(), json);
        }
        json.append('}');
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Appends {@code text} as a JSON string (RFC 8259: quote, backslash and control characters escaped). */
    static void quote(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
