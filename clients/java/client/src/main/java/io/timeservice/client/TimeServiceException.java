package io.timeservice.client;

/**
 * The service refused a call: every answer with a 4xx or 5xx status becomes one, carrying the problem the service
 * sent. Unchecked, like every exception of this client; a refused call changed nothing on the service (for a 503 on
 * a change, the outcome is unknown until the service is back, see the service's README).
 *
 * <p>Transport failures (no connection, a timeout) are {@link java.io.UncheckedIOException}s instead: the service
 * said nothing.
 */
public class TimeServiceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Problem problem;

    public TimeServiceException(Problem problem) {
        super(problem.status() + " " + problem.code() + ": " + problem.detail());
        this.problem = problem;
    }

    /** The HTTP status, e.g. 404. */
    public int status() {
        return problem.status();
    }

    /** The problem's stable code, e.g. {@code timer_not_found}. */
    public String code() {
        return problem.code();
    }

    /** What was wrong, in the service's words. */
    public String detail() {
        return problem.detail();
    }

    /** The whole problem detail. */
    public Problem problem() {
        return problem;
    }
}
