package io.timeservice.core;

/**
 * A refused operation. Thrown before anything is mutated, so a refused call leaves the scheduler exactly as it was;
 * the one exception is {@code storage_unavailable} for a change that failed after its journal record was written,
 * which stops the scheduler (see {@link TimerScheduler}). The message names the offending value and is safe to show
 * to the client.
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
