package io.timeservice.web;

import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers the requests that Tomcat refuses before any servlet runs (a request target with an encoded slash, a NUL or
 * a broken percent-escape) with the same problem+json shape as every other error, instead of Tomcat's HTML page.
 * Neither {@link ProblemHandler} nor {@link ProblemErrorController} ever sees those requests.
 *
 * <p>Installed on the host by {@link ProblemErrorReportValveCustomizer} in place of the plain valve; public because
 * Tomcat may create the host's error valve by class name.
 */
public final class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String code = Problems.codeOf(HttpStatusCode.valueOf(status));
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", Problems.TYPE_PREFIX + code);
        problem.put("title", known != null ? known.getReasonPhrase() : "Error");
        problem.put("status", status);
        problem.put("detail", status >= 500 ? "the service failed unexpectedly; the failure is logged"
                : "the request was refused before it reached the service; check the request target's encoding");
        problem.put("instance", request.getRequestURI() == null ? "/" : request.getRequestURI());
        problem.put("code", code);
        try {
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(JsonMapper.shared().writeValueAsString(problem));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response cannot be written any more: nothing left to tell it
        }
    }
}
