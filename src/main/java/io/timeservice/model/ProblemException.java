package io.timeservice.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A refused operation, answered as an RFC 9457 problem ({@code application/problem+json}) with its {@link ErrorCode}
 * and its message as the detail, whichever store refused it. Thrown before anything is mutated, so a refused call
 * leaves the service exactly as it was; the one exception is {@code storage_unavailable} for a change that failed
 * after its journal record was written, which stops the service (the memory store's fail-stop). The message names
 * the offending value and is safe to show to the client.
 */
public final class ProblemException extends RuntimeException {

    /** Not part of a batch. */
    public static final int NO_OP_INDEX = -1;

    private final ErrorCode code;
    private final int opIndex;
    private final String member;
    /** Further members of the problem (name to a JSON-able JDK value), such as a duplicate id's {@code previous}. */
    private final Map<String, Object> extra;

    public ProblemException(ErrorCode code, String message) {
        this(code, message, NO_OP_INDEX, null, Map.of());
    }

    private ProblemException(ErrorCode code, String message, int opIndex, String member, Map<String, Object> extra) {
        super(message, null, false, false);
        this.code = code;
        this.opIndex = opIndex;
        this.member = member;
        this.extra = extra;
    }

    /** This refusal with the problem member {@code name} set to {@code value} (strings, numbers, maps of them). */
    public ProblemException with(String name, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(extra);
        more.put(name, value);
        return new ProblemException(code, getMessage(), opIndex, member, Map.copyOf(more));
    }

    /** The problem's further members, by name; empty for most refusals. */
    public Map<String, Object> extra() {
        return extra;
    }

    public ErrorCode code() {
        return code;
    }

    /** The index of the batch operation that was refused, or {@link #NO_OP_INDEX} for a single call. */
    public int opIndex() {
        return opIndex;
    }

    /** This refusal as operation {@code index} of a batch, its message prefixed with the index. */
    public ProblemException atOp(int index) {
        return new ProblemException(code, "operation " + index + ": " + getMessage(), index, member, extra);
    }

    /**
     * The JSON pointer (RFC 6901) of the member of a document that was refused, such as {@code /timers/3/id}, or
     * null when the refusal names none.
     */
    public String member() {
        return member;
    }

    /** This refusal of the document member at {@code pointer}, its message prefixed with the pointer. */
    public ProblemException atMember(String pointer) {
        return new ProblemException(code, pointer + ": " + getMessage(), opIndex, pointer, extra);
    }
}
