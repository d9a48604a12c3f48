package io.timeservice.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Answers the errors that never reach a controller (rejected by Tomcat or a filter, forwarded to {@code /error})
 * with the same problem+json shape as every other error, instead of Boot's default error page or JSON.
 */
@RestController
class ProblemErrorController implements ErrorController {

    @RequestMapping("/error")
    ResponseEntity<Object> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (code == null) {
            // asked for directly, not forwarded by the container: there is no error to report
            return Problems.response(Problems.problem(ProblemType.NOT_FOUND, "no such resource"));
        }
        HttpStatus status = code instanceof Integer value && HttpStatus.resolve(value) != null
                ? HttpStatus.valueOf(value) : HttpStatus.INTERNAL_SERVER_ERROR;
        String detail = status.is5xxServerError() ? "the service failed unexpectedly; the failure is logged"
                : status.getReasonPhrase();
        return Problems.response(Problems.problem(ProblemType.ofStatus(status.value()), status, detail));
    }
}
