package io.timeservice.web;

import org.springframework.http.HttpStatus;

/** A client error the web layer finds itself (not the scheduler): sent as problem+json with its own code. */
final class ApiProblem extends RuntimeException {

    private final HttpStatus status;
    private final String code;

    ApiProblem(HttpStatus status, String code, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
    }

    HttpStatus status() {
        return status;
    }

    String code() {
        return code;
    }
}
