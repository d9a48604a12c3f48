package io.timeservice.web;

import java.util.Map;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.store.StoreMetrics;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The QStash calls' refusals as QStash answers them (issue 47): {@code {"error": "..."}} with the status the refusal
 * has everywhere else ({@link ProblemType#of}), the body the SDK's {@code QstashError} carries as its message.
 * Refusals before a QStash controller runs (authentication, the request body limit) and {@code storage_unavailable}
 * stay problem+json.
 */
@RestControllerAdvice(assignableTypes = {QStashController.class, QStashMessagesController.class,
        QStashSchedulesController.class, QStashDlqController.class})
@Order(Ordered.HIGHEST_PRECEDENCE)
class QStashErrors {

    private final StoreMetrics metrics;

    QStashErrors(StoreMetrics metrics) {
        this.metrics = metrics;
    }

    @ExceptionHandler(ProblemException.class)
    ResponseEntity<Object> refused(ProblemException e) {
        metrics.rejected(e.code());
        if (e.code() == ErrorCode.STORAGE_UNAVAILABLE) { // the service's own failure, as every call answers it
            return Problems.response(Problems.problem(ProblemType.of(e.code()), e.getMessage()),
                    Limits.STORAGE_RETRY_AFTER_SECONDS);
        }
        return ResponseEntity.status(ProblemType.of(e.code()).status()).body(Map.of("error", e.getMessage()));
    }
}
