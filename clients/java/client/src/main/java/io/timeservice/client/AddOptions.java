package io.timeservice.client;

import java.util.UUID;

/**
 * How {@link ClockClient#add(String, java.time.Duration, int, String, AddOptions)} adds: with an
 * {@code Idempotency-Key}, the service answers a repeat of the add with its first answer instead of adding again
 * (docs/API.md, "Idempotency-Key"), and the client itself repeats the add after a 503 or a lost connection. Keep the
 * key of an add and send it again when you retry it; a new add needs a new key.
 */
public final class AddOptions {

    private static final AddOptions NONE = new AddOptions(null);

    private final String idempotencyKey;

    private AddOptions(String idempotencyKey) {
        this.idempotencyKey = idempotencyKey;
    }

    /** No key: the add is sent once, and a retry may add again. */
    public static AddOptions none() {
        return NONE;
    }

    /** The add carries {@code key}: 1 to 255 visible ASCII characters. */
    public static AddOptions idempotencyKey(String key) {
        if (key == null || key.isEmpty() || key.length() > 255 || !key.chars().allMatch(c -> c >= '!' && c <= '~')) {
            throw new IllegalArgumentException("an Idempotency-Key is 1 to 255 visible ASCII characters");
        }
        return new AddOptions(key);
    }

    /** A fresh random key: for an add whose own retries should be safe. */
    public static AddOptions newIdempotencyKey() {
        return new AddOptions(UUID.randomUUID().toString());
    }

    /** The key, or null for none. */
    public String idempotencyKey() {
        return idempotencyKey;
    }
}
