package io.timeservice.web;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.store.StoreMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns every refusal into an RFC 9457 problem+json answer with a {@code code} member. Client mistakes are logged
 * at DEBUG only (a bad client must not flood the log); an unexpected failure is logged once at ERROR and answered
 * with a generic 500 that carries no stack trace, class name or message.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    private final StoreMetrics metrics;

    ProblemHandler(StoreMetrics metrics) {
        this.metrics = metrics;
    }

    @ExceptionHandler(ProblemException.class)
    ResponseEntity<Object> refused(ProblemException e) {
        log.debug("refused: {} {}", e.code().code(), e.getMessage());
        metrics.rejected(e.code());
        if (e.extra().containsKey("previous")) {
            metrics.reservedIdRefused();   // a dedupe window's duplicate_id
        }
        ProblemDetail problem = Problems.problem(ProblemType.of(e.code()), e.getMessage());
        if (e.opIndex() != ProblemException.NO_OP_INDEX) {
            problem.setProperty("op", e.opIndex());   // the refused operation of a batch
        }
        if (e.member() != null) {
            problem.setProperty("member", e.member());   // the JSON pointer of a document's refused member
        }
        e.extra().forEach(problem::setProperty);   // such as a reserved id's previous timer
        if (e.code() == ErrorCode.STORAGE_UNAVAILABLE) { // a database failing over, a busy row: try again shortly
            return Problems.response(problem, Limits.STORAGE_RETRY_AFTER_SECONDS);
        }
        return Problems.response(problem);
    }

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<Object> refused(ApiProblem e) {
        log.debug("refused: {} {}", e.type().code(), e.getMessage());
        return Problems.response(Problems.problem(e.type(), e.getMessage()));
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<Object> badParameter(MethodArgumentTypeMismatchException e) {
        log.debug("refused: bad parameter {}", e.getName());
        return Problems.response(Problems.problem(ProblemType.INVALID_REQUEST,
                Problems.invalidParameter(e.getName())));
    }

    /**
     * A header or parameter the firewall refuses when the request handling reads it (such as {@code If-Match}): the
     * client's mistake, answered as the firewall's own refusals are. The refused value is not echoed.
     */
    @ExceptionHandler(RequestRejectedException.class)
    ResponseEntity<Object> rejected(RequestRejectedException e) {
        log.debug("refused by the firewall: {}", e.getMessage());
        return Problems.response(Problems.problem(ProblemType.INVALID_REQUEST, Problems.FIREWALL_REFUSAL));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception e) {
        log.error("unexpected failure", e);
        return Problems.response(Problems.problem(ProblemType.INTERNAL_ERROR,
                "the service failed unexpectedly; the failure is logged"));
    }

    /** Spring MVC's own problems (404, 405, 415, ...): keep its detail, add our type and code. */
    @Override
    protected ResponseEntity<Object> createResponseEntity(Object body, HttpHeaders headers,
                                                          HttpStatusCode statusCode, WebRequest request) {
        ProblemDetail problem = body instanceof ProblemDetail detail ? detail
                : ProblemDetail.forStatus(statusCode);
        Problems.decorate(problem, ProblemType.ofStatus(statusCode.value()));
        HttpHeaders problemHeaders = new HttpHeaders();
        problemHeaders.putAll(headers);
        problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return new ResponseEntity<>(problem, problemHeaders, statusCode);
    }
}
