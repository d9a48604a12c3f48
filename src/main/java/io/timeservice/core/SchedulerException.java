package io.timeservice.core;

/**
 * A refused operation. Thrown before anything is mutated, so a refused call leaves the scheduler exactly as it was.
 * The message names the offending value and is safe to show to the client.
 */
public final class SchedulerException extends RuntimeException {

    private final ErrorCode code;

    public SchedulerException(ErrorCode code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
