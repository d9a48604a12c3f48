package io.timeservice.web;

import java.net.URI;

import io.timeservice.core.ErrorCode;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** Builds the RFC 9457 answers: a stable {@code type} URI per kind of problem and a {@code code} member. */
final class Problems {

    static final String TYPE_PREFIX = "urn:timeservice:problem:";

    private Problems() {
    }

    static HttpStatus statusOf(ErrorCode code) {
        return switch (code) {
            case INVALID_REQUEST, INVALID_ID, INVALID_DELAY, INVALID_PRIORITY, INVALID_ADVANCE, INVALID_LIMIT ->
                    HttpStatus.BAD_REQUEST;
            case PAYLOAD_TOO_LARGE -> HttpStatus.CONTENT_TOO_LARGE;
            case DUPLICATE_ID, VERSION_LIMIT_REACHED -> HttpStatus.CONFLICT;
            case TIMER_NOT_FOUND, QUEUE_EMPTY -> HttpStatus.NOT_FOUND;
            case PRECONDITION_FAILED -> HttpStatus.PRECONDITION_FAILED;
            case CAPACITY_EXCEEDED -> HttpStatus.TOO_MANY_REQUESTS;
            case STORAGE_UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
        };
    }

    /** The code for a problem found by Spring MVC itself rather than by our validation. */
    static String codeOf(HttpStatusCode status) {
        return switch (status.value()) {
            case 400 -> ErrorCode.INVALID_REQUEST.code();
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 413 -> ErrorCode.PAYLOAD_TOO_LARGE.code();
            case 415 -> "unsupported_media_type";
            default -> status.is4xxClientError() ? "client_error" : "internal_error";
        };
    }

    static ProblemDetail problem(HttpStatusCode status, String code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        decorate(problem, code);
        return problem;
    }

    /** Gives a problem our type and code; Spring fills {@code instance} with the request path. */
    static void decorate(ProblemDetail problem, String code) {
        problem.setType(URI.create(TYPE_PREFIX + code));
        problem.setProperty("code", code);
    }

    static ResponseEntity<Object> response(ProblemDetail problem) {
        return ResponseEntity.status(problem.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
