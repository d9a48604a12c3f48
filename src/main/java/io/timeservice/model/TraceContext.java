package io.timeservice.model;

import java.util.regex.Pattern;

/**
 * The W3C trace context (https://www.w3.org/TR/trace-context/) a timer keeps of the request that added it, so that
 * its firing and delivery continue that request's trace (issue 46). Kept as one text: the {@code traceparent}
 * header's value (55 characters, version 00), then, if the request had one, {@code ;} and its {@code tracestate}.
 * The stores keep the text as it is (journal, PostgreSQL column, snapshot document); only this class reads it.
 */
public final class TraceContext {

    /** {@code 00-<trace id: 32 hex>-<parent id: 16 hex>-<flags: 2 hex>}, lower case, ids not all zeros. */
    private static final Pattern TRACEPARENT = Pattern.compile("00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}");
    private static final int TRACEPARENT_LENGTH = 55;
    /** The W3C limit: a tracestate longer than 512 characters may be dropped; here it is. */
    public static final int MAX_TRACESTATE = 512;
    /** The longest text a store must hold. */
    public static final int MAX_LENGTH = TRACEPARENT_LENGTH + 1 + MAX_TRACESTATE;

    private TraceContext() {
    }

    /**
     * The context of these header values, or null when {@code traceparent} is absent or not a valid version-00
     * value (a malformed context is ignored, as the W3C recommendation says, never refused); a tracestate that is
     * blank, too long or not printable ASCII is left out.
     */
    public static String of(String traceparent, String tracestate) {
        if (traceparent == null || !TRACEPARENT.matcher(traceparent.trim()).matches()) {
            return null;
        }
        String parent = traceparent.trim();
        if (tracestate == null || tracestate.isBlank() || tracestate.length() > MAX_TRACESTATE
                || !tracestate.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            return parent;
        }
        return parent + ';' + tracestate.trim();
    }

    /** Whether {@code text} is a context as {@link #of} makes them (a stored one, read back). */
    public static boolean isValid(String text) {
        if (text == null || text.length() > MAX_LENGTH) {
            return false;
        }
        String parent = text.length() > TRACEPARENT_LENGTH ? text.substring(0, TRACEPARENT_LENGTH) : text;
        String state = text.length() > TRACEPARENT_LENGTH + 1 ? text.substring(TRACEPARENT_LENGTH + 1) : null;
        return (text.length() <= TRACEPARENT_LENGTH || text.charAt(TRACEPARENT_LENGTH) == ';')
                && text.equals(of(parent, state));
    }

    /** Why a saved clock's {@code traceparent} and {@code tracestate} are no trace context (a load refuses them). */
    public static String notValid(String traceparent, String tracestate) {
        return traceparent == null ? "a tracestate needs a traceparent"
                : of(traceparent, null) == null ? "traceparent must be a W3C traceparent of version 00 (00-<32 hex>-<16"
                + " hex>-<2 hex>, lower case, ids not all zeros)"
                : "tracestate must be at most " + MAX_TRACESTATE + " printable ASCII characters";
    }

    /** The {@code traceparent} value of a context. */
    public static String traceparent(String context) {
        return context.length() > TRACEPARENT_LENGTH ? context.substring(0, TRACEPARENT_LENGTH) : context;
    }

    /** The {@code tracestate} value of a context, or null. */
    public static String tracestate(String context) {
        return context.length() > TRACEPARENT_LENGTH + 1 ? context.substring(TRACEPARENT_LENGTH + 1) : null;
    }

    /** The trace id (32 hex) of a context. */
    public static String traceId(String context) {
        return context.substring(3, 35);
    }
}
