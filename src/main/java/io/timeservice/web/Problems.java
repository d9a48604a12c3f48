package io.timeservice.web;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds the RFC 9457 answers of every layer — {@code type}, {@code title}, {@code status}, {@code detail},
 * {@code instance} and a {@code code} member, from a {@link ProblemType} — and writes those that are answered outside
 * Spring MVC (by the security filter chain, the actuator filter or Tomcat) exactly as Spring MVC writes the rest.
 */
public final class Problems {

    /** The detail of a query parameter whose value cannot be read as its type, whoever reads it. */
    static String invalidParameter(String name) {
        return "query parameter \"" + name + "\" has an invalid value";
    }

    /** The answer to every request Spring Security's firewall refuses, wherever it is noticed. */
    public static final String FIREWALL_REFUSAL = "the request was refused: a header, parameter or path holds a "
            + "character or sequence that is not allowed (control characters, unassigned code points, encoded or "
            + "doubled slashes, path parameters)";

    /** Serializes a {@link ProblemDetail} as Spring MVC's message converter does: its properties inline. */
    private static final JsonMapper JSON = JsonMapper.builder()
            .addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class)
            .build();

    private Problems() {
    }

    public static ProblemDetail problem(ProblemType type, String detail) {
        return problem(type, type.status(), detail);
    }

    /** For {@link ProblemType#CLIENT_ERROR} and {@link ProblemType#INTERNAL_ERROR}, which cover several statuses. */
    public static ProblemDetail problem(ProblemType type, HttpStatusCode status, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        if (problem.getTitle() == null) {
            problem.setTitle("Error"); // a status without a reason phrase
        }
        decorate(problem, type);
        return problem;
    }

    /** Gives a problem our type and code; Spring MVC fills {@code instance} with the request path. */
    static void decorate(ProblemDetail problem, ProblemType type) {
        problem.setType(type.type());
        problem.setProperty("code", type.code());
    }

    static ResponseEntity<Object> response(ProblemDetail problem) {
        return ResponseEntity.status(problem.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    /** {@link #response(ProblemDetail)} telling the client to try again after {@code retryAfterSeconds}. */
    static ResponseEntity<Object> response(ProblemDetail problem, int retryAfterSeconds) {
        return ResponseEntity.status(problem.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(retryAfterSeconds))
                .body(problem);
    }

    /**
     * The request attribute holding the path a client sent where a filter hands the request on under another path
     * ({@link QStashPaths}): a problem's {@code instance} names what the client sent.
     */
    public static final String SENT_PATH = Problems.class.getName() + ".sentPath";

    /** The path the client sent: {@link #SENT_PATH} where a filter rewrote it, else the request's URI. */
    public static String instanceOf(HttpServletRequest request) {
        Object sent = request.getAttribute(SENT_PATH);
        return sent instanceof String path ? path : request.getRequestURI();
    }

    /** Answers with the problem, unless an answer has started already; {@code instance} is the request path. */
    public static void write(HttpServletResponse response, ProblemDetail problem, String instance)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.setStatus(problem.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(render(problem, instance));
    }

    /** The problem+json body; {@code instance} is the request path as it was sent, even if it is not a valid URI. */
    public static byte[] render(ProblemDetail problem, String instance) {
        try {
            problem.setInstance(instance.isEmpty() ? null : new URI(instance));
        } catch (URISyntaxException e) {
            problem.setInstance(null);
        }
        if (problem.getInstance() == null) {
            problem.setProperty("instance", instance); // e.g. a target Tomcat refused because it could not decode it
        }
        return JSON.writeValueAsBytes(problem);
    }
}
