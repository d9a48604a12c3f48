package io.timeservice.model;



/**
 * A refused operation. Thrown before anything is mutated, so a refused call leaves the scheduler exactly as it was;
 * the one exception is {@code storage_unavailable} for a change that failed after its journal record was written,
 * which stops the scheduler (the memory store's fail-stop). The message names the offending value and is safe to show
 * to the client.
 */
public final class SchedulerException extends RuntimeException {

    /** Not part of a batch. */
    public static final int NO_OP_INDEX = -1;

    private final ErrorCode code;
    private final int opIndex;

    public SchedulerException(ErrorCode code, String message) {
        this(code, message, NO_OP_INDEX);
    }

    private SchedulerException(ErrorCode code, String message, int opIndex) {
        super(message, null, false, false);
        this.code = code;
        this.opIndex = opIndex;
    }

    public ErrorCode code() {
        return code;
    }

    /** The index of the batch operation that was refused, or {@link #NO_OP_INDEX} for a single call. */
    public int opIndex() {
        return opIndex;
    }

    /** This refusal as operation {@code index} of a batch, its message prefixed with the index. */
    public SchedulerException atOp(int index) {
        return new SchedulerException(code, "operation " + index + ": " + getMessage(), index);
    }
}
