package io.timeservice.web;

import java.net.URI;
import java.util.Locale;

import io.timeservice.model.ErrorCode;
import org.springframework.http.HttpStatus;

/**
 * Every kind of problem the service answers with: its wire {@code code}, its {@code type} URI, its HTTP status and
 * its title (the status's reason phrase). The scheduler's refusals ({@link ErrorCode}) each map to one entry; the
 * others are found by the web layer itself: by Spring MVC, the security filter chain, Tomcat or the actuator.
 *
 * <p>{@link #CLIENT_ERROR} and {@link #INTERNAL_ERROR} stand for a range of statuses (any other 4xx, any 5xx): they are
 * answered with the status that was found, and that status's reason phrase as the title.
 */
public enum ProblemType {

    INVALID_REQUEST(HttpStatus.BAD_REQUEST),
    INVALID_ID(HttpStatus.BAD_REQUEST),
    INVALID_DELAY(HttpStatus.BAD_REQUEST),
    INVALID_PRIORITY(HttpStatus.BAD_REQUEST),
    INVALID_ADVANCE(HttpStatus.BAD_REQUEST),
    INVALID_LIMIT(HttpStatus.BAD_REQUEST),
    TARGET_NOT_ALLOWED(HttpStatus.BAD_REQUEST),
    INVALID_SNAPSHOT(HttpStatus.BAD_REQUEST),
    INVALID_SCHEDULE(HttpStatus.BAD_REQUEST),
    UNAUTHORIZED(HttpStatus.UNAUTHORIZED),
    FORBIDDEN(HttpStatus.FORBIDDEN),
    /** A caller from another machine while no token is configured (see security's protected mode). */
    PROTECTED_MODE(HttpStatus.FORBIDDEN),
    NOT_FOUND(HttpStatus.NOT_FOUND),
    TIMER_NOT_FOUND(HttpStatus.NOT_FOUND),
    QUEUE_EMPTY(HttpStatus.NOT_FOUND),
    CLOCK_NOT_FOUND(HttpStatus.NOT_FOUND),
    DELIVERY_NOT_FOUND(HttpStatus.NOT_FOUND),
    SCHEDULE_NOT_FOUND(HttpStatus.NOT_FOUND),
    FLOW_KEY_NOT_FOUND(HttpStatus.NOT_FOUND),
    RESERVATION_NOT_FOUND(HttpStatus.NOT_FOUND),
    DEMO_DISABLED(HttpStatus.NOT_FOUND),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE),
    DUPLICATE_ID(HttpStatus.CONFLICT),
    VERSION_LIMIT_REACHED(HttpStatus.CONFLICT),
    CLOCK_CONFLICT(HttpStatus.CONFLICT),
    CLOCK_UNDELETABLE(HttpStatus.CONFLICT),
    CLOCK_NOT_VIRTUAL(HttpStatus.CONFLICT),
    CLOCK_NOT_SCALED(HttpStatus.CONFLICT),
    CLOCK_NOT_QUEUED(HttpStatus.CONFLICT),
    CLAIM_LOST(HttpStatus.CONFLICT),
    SCHEDULE_OWNED(HttpStatus.CONFLICT),
    IDEMPOTENCY_KEY_IN_USE(HttpStatus.CONFLICT),
    IDEMPOTENCY_KEY_REUSED(HttpStatus.UNPROCESSABLE_CONTENT),
    PRECONDITION_FAILED(HttpStatus.PRECONDITION_FAILED),
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE),
    CAPACITY_EXCEEDED(HttpStatus.TOO_MANY_REQUESTS),
    CLOCK_LIMIT(HttpStatus.TOO_MANY_REQUESTS),
    SCHEDULE_LIMIT(HttpStatus.TOO_MANY_REQUESTS),
    IDEMPOTENCY_KEY_LIMIT(HttpStatus.TOO_MANY_REQUESTS),
    RESERVATION_LIMIT(HttpStatus.TOO_MANY_REQUESTS),
    FLOW_KEY_LIMIT(HttpStatus.TOO_MANY_REQUESTS),
    /** Any other refused request (408, 414, 431, ...), answered with its own status. */
    CLIENT_ERROR(HttpStatus.BAD_REQUEST),
    /** Any failure of the service itself, answered with its own 5xx status; never carries the failure's message. */
    INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR),
    STORAGE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE);

    static final String TYPE_PREFIX = "urn:timeservice:problem:";

    private final HttpStatus status;
    private final String code;
    private final URI type;

    ProblemType(HttpStatus status) {
        this.status = status;
        this.code = name().toLowerCase(Locale.ROOT);
        this.type = URI.create(TYPE_PREFIX + code);
    }

    /** The wire form sent as the problem's {@code code}: {@code invalid_delay}, {@code protected_mode}, ... */
    public String code() {
        return code;
    }

    public URI type() {
        return type;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return status.getReasonPhrase();
    }

    /** The entry for a refusal of the scheduler. */
    public static ProblemType of(ErrorCode refusal) {
        return switch (refusal) {
            case INVALID_REQUEST -> INVALID_REQUEST;
            case INVALID_ID -> INVALID_ID;
            case INVALID_DELAY -> INVALID_DELAY;
            case INVALID_PRIORITY -> INVALID_PRIORITY;
            case INVALID_ADVANCE -> INVALID_ADVANCE;
            case INVALID_LIMIT -> INVALID_LIMIT;
            case PAYLOAD_TOO_LARGE -> PAYLOAD_TOO_LARGE;
            case DUPLICATE_ID -> DUPLICATE_ID;
            case TIMER_NOT_FOUND -> TIMER_NOT_FOUND;
            case QUEUE_EMPTY -> QUEUE_EMPTY;
            case PRECONDITION_FAILED -> PRECONDITION_FAILED;
            case VERSION_LIMIT_REACHED -> VERSION_LIMIT_REACHED;
            case CAPACITY_EXCEEDED -> CAPACITY_EXCEEDED;
            case CLOCK_NOT_FOUND -> CLOCK_NOT_FOUND;
            case CLOCK_CONFLICT -> CLOCK_CONFLICT;
            case CLOCK_UNDELETABLE -> CLOCK_UNDELETABLE;
            case CLOCK_LIMIT -> CLOCK_LIMIT;
            case CLOCK_NOT_VIRTUAL -> CLOCK_NOT_VIRTUAL;
            case CLOCK_NOT_SCALED -> CLOCK_NOT_SCALED;
            case CLOCK_NOT_QUEUED -> CLOCK_NOT_QUEUED;
            case CLAIM_LOST -> CLAIM_LOST;
            case DELIVERY_NOT_FOUND -> DELIVERY_NOT_FOUND;
            case TARGET_NOT_ALLOWED -> TARGET_NOT_ALLOWED;
            case IDEMPOTENCY_KEY_REUSED -> IDEMPOTENCY_KEY_REUSED;
            case IDEMPOTENCY_KEY_IN_USE -> IDEMPOTENCY_KEY_IN_USE;
            case IDEMPOTENCY_KEY_LIMIT -> IDEMPOTENCY_KEY_LIMIT;
            case INVALID_SNAPSHOT -> INVALID_SNAPSHOT;
            case INVALID_SCHEDULE -> INVALID_SCHEDULE;
            case SCHEDULE_NOT_FOUND -> SCHEDULE_NOT_FOUND;
            case SCHEDULE_LIMIT -> SCHEDULE_LIMIT;
            case RESERVATION_NOT_FOUND -> RESERVATION_NOT_FOUND;
            case RESERVATION_LIMIT -> RESERVATION_LIMIT;
            case FLOW_KEY_NOT_FOUND -> FLOW_KEY_NOT_FOUND;
            case FLOW_KEY_LIMIT -> FLOW_KEY_LIMIT;
            case SCHEDULE_OWNED -> SCHEDULE_OWNED;
            case STORAGE_UNAVAILABLE -> STORAGE_UNAVAILABLE;
        };
    }

    /** The entry for a problem of this status found outside our validation: by Spring MVC, Tomcat or the actuator. */
    public static ProblemType ofStatus(int status) {
        return switch (status) {
            case 400 -> INVALID_REQUEST;
            case 401 -> UNAUTHORIZED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            default -> status >= 400 && status < 500 ? CLIENT_ERROR : INTERNAL_ERROR;
        };
    }
}
