package io.timeservice.web;

/**
 * Who sent a request, as the {@code Idempotency-Key} scope sees it: the security filter chain sets
 * {@link #ATTRIBUTE} to a digest of the caller's bearer token; without tokens every caller is {@link #ANONYMOUS}.
 */
public final class Callers {

    /** The request attribute that holds the caller's scope (a String). */
    public static final String ATTRIBUTE = "io.timeservice.caller";
    /** The scope of every caller while no token is configured. */
    public static final String ANONYMOUS = "anonymous";

    private Callers() {
    }
}
