package io.timeservice.web;

/**
 * A refusal the web layer finds itself, not the scheduler (such as {@link ProblemType#DEMO_DISABLED}): answered as
 * problem+json with its type's status and code.
 */
final class ApiProblem extends RuntimeException {

    private final ProblemType type;

    ApiProblem(ProblemType type, String detail) {
        super(detail, null, false, false);
        this.type = type;
    }

    ProblemType type() {
        return type;
    }
}
