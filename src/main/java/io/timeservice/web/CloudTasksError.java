package io.timeservice.web;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;

/**
 * A refusal of the Cloud Tasks API in Google's canonical codes (issue 47): the HTTP status and the {@code status}
 * name that Google's JSON error carries, {@code {"error":{"code","message","status"}}}, from which the SDKs raise
 * their own error types ({@code AlreadyExistsException}, {@code NotFoundException}, ...).
 */
final class CloudTasksError extends RuntimeException {

    /** Google's canonical codes that this API answers, with their HTTP statuses. */
    enum Status {
        INVALID_ARGUMENT(400), FAILED_PRECONDITION(400), NOT_FOUND(404), ALREADY_EXISTS(409),
        RESOURCE_EXHAUSTED(429), UNIMPLEMENTED(501), UNAVAILABLE(503), INTERNAL(500);

        final int http;

        Status(int http) {
            this.http = http;
        }
    }

    final Status status;

    CloudTasksError(Status status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    static CloudTasksError notFound(String what) {
        return new CloudTasksError(Status.NOT_FOUND, what + " does not exist");
    }

    static CloudTasksError unimplemented(String what) {
        return new CloudTasksError(Status.UNIMPLEMENTED, what + " is not supported by TimeService's Cloud Tasks API"
                + " (docs/DROP-IN.md)");
    }

    /** A TimeService refusal in the canonical code that says the same. */
    static CloudTasksError of(ProblemException problem) {
        return new CloudTasksError(statusOf(problem.code()), problem.getMessage());
    }

    private static Status statusOf(ErrorCode code) {
        return switch (code) {
            case INVALID_REQUEST, INVALID_ID, INVALID_DELAY, INVALID_LIMIT, PAYLOAD_TOO_LARGE, TARGET_NOT_ALLOWED
                    -> Status.INVALID_ARGUMENT;
            case DUPLICATE_ID, CLOCK_CONFLICT -> Status.ALREADY_EXISTS;
            case TIMER_NOT_FOUND, CLOCK_NOT_FOUND, DELIVERY_NOT_FOUND -> Status.NOT_FOUND;
            case CAPACITY_EXCEEDED, CLOCK_LIMIT, RESERVATION_LIMIT -> Status.RESOURCE_EXHAUSTED;
            case STORAGE_UNAVAILABLE -> Status.UNAVAILABLE;
            default -> Status.FAILED_PRECONDITION;
        };
    }
}
