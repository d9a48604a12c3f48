package io.timeservice.client;

import java.util.UUID;

/**
 * How {@link ClockClient#add(String, java.time.Duration, int, String, AddOptions)} adds: with an
 * {@code Idempotency-Key}, the service answers a repeat of the add with its first answer instead of adding again
 * (docs/API.md, "Idempotency-Key"), and the client itself repeats the add after a 503 or a lost connection. Keep the
 * key of an add and send it again when you retry it; a new add needs a new key.
 */
public final class AddOptions {

    private static final AddOptions NONE = new AddOptions(null, null, null);

    private final String idempotencyKey;
    private final OnConflict onConflict;
    private final String key;

    private AddOptions(String idempotencyKey, OnConflict onConflict) {
        this(idempotencyKey, onConflict, null);
    }

    private AddOptions(String idempotencyKey, OnConflict onConflict, String key) {
        this.idempotencyKey = idempotencyKey;
        this.onConflict = onConflict;
        this.key = key;
    }

    /**
     * The timer carries the flow-control {@code key} (a tenant, a customer, a downstream API: 1 to 128 characters
     * of {@code A-Z a-z 0-9 . _ - ~ :}, which the service checks): a clock's {@link FlowControl} limits apply per key,
     * and its deliveries show it ({@link Delivery#key()}).
     */
    public static AddOptions key(String key) {
        return NONE.withKey(key);
    }

    /** These options, with the flow-control key {@code key} (see {@link #key(String)}). */
    public AddOptions withKey(String key) {
        return new AddOptions(idempotencyKey, onConflict, java.util.Objects.requireNonNull(key, "key"));
    }

    /** The flow-control key, or null for none (the timer shares the empty key). */
    public String key() {
        return key;
    }

    /**
     * The add decides by {@code choice} when its id is pending or reserved; use {@link ClockClient#addDeciding} to
     * read which happened.
     */
    public static AddOptions onConflict(OnConflict choice) {
        return NONE.withOnConflict(choice);
    }

    /** These options, deciding by {@code choice} when the id is pending or reserved. */
    public AddOptions withOnConflict(OnConflict choice) {
        return new AddOptions(idempotencyKey, java.util.Objects.requireNonNull(choice, "choice"), key);
    }

    /** What the add does on a conflict, or null for the service's default ({@link OnConflict#ERROR}). */
    public OnConflict onConflict() {
        return onConflict;
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
        return new AddOptions(key, null);
    }

    /** A fresh random key: for an add whose own retries should be safe. */
    public static AddOptions newIdempotencyKey() {
        return new AddOptions(UUID.randomUUID().toString(), null);
    }

    /** These options with the key {@code key} (see {@link #idempotencyKey(String)}). */
    public AddOptions withIdempotencyKey(String key) {
        return new AddOptions(idempotencyKey(key).idempotencyKey, onConflict, this.key);
    }

    /** The key, or null for none. */
    public String idempotencyKey() {
        return idempotencyKey;
    }
}
