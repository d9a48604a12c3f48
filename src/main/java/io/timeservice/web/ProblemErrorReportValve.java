package io.timeservice.web;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;

/**
 * Tomcat's last word on a request that never reached the application — a malformed request line or URI (an encoded
 * {@code /} or NUL, invalid percent-encoding), headers over {@code server.max-http-request-header-size} — written as
 * problem+json instead of Tomcat's HTML page. Errors inside the application are forwarded to {@code /error} and
 * answered by the web layer, so this valve only sees what Tomcat refused by itself. It never writes a message or an
 * exception: only the status, its reason phrase and a code.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    public ProblemErrorReportValve() {
        setShowReport(false);
        setShowServerInfo(false);
    }

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
        String detail = status >= 500 ? "the service failed unexpectedly; the failure is logged"
                : "the request was refused before it reached the service: it is not valid HTTP or exceeds a limit";
        // Tomcat could not decode the target (that is often why it refused it), so name it as it was sent.
        String decoded = request.getDecodedRequestURI();
        String instance = decoded != null && !decoded.isEmpty() ? decoded : request.getRequestURI();
        try {
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            PrintWriter writer = response.getReporter();
            if (writer != null) {
                byte[] body = Problems.render(Problems.problem(ProblemType.ofStatus(status),
                        HttpStatusCode.valueOf(status), detail), instance == null ? "" : instance);
                writer.write(new String(body, StandardCharsets.UTF_8));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client has gone or the response cannot be written any more; nothing else to do
        }
    }
}
