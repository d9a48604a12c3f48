package io.timeservice.store;

/**
 * An {@code Idempotency-Key} in its scope: the clock the request addresses ({@code default} for the paths without
 * one) and the caller (a digest of its bearer token, or {@code anonymous} without tokens). The same key of two
 * callers, or on two clocks, names two requests.
 */
public record IdempotencyKey(String clock, String caller, String key) {
}
