package io.timeservice.web;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * The problem+json body for answers written outside Spring MVC — by the security filter chain or by Tomcat itself —
 * with the same members as every other error of the service: {@code type}, {@code title}, {@code status},
 * {@code detail}, {@code instance} and {@code code}.
 */
public final class ProblemJson {

    public static final String MEDIA_TYPE = MediaType.APPLICATION_PROBLEM_JSON_VALUE;

    private ProblemJson() {
    }

    /** The code Spring MVC would give a problem of this status that our own validation did not find. */
    public static String codeOf(int status) {
        return Problems.codeOf(HttpStatusCode.valueOf(status));
    }

    public static byte[] render(int status, String code, String detail, String instance) {
        HttpStatus known = HttpStatus.resolve(status);
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", Problems.TYPE_PREFIX + code);
        problem.put("title", known == null ? "Error" : known.getReasonPhrase());
        problem.put("status", status);
        problem.put("detail", detail);
        problem.put("instance", instance);
        problem.put("code", code);
        return JsonMapper.shared().writeValueAsBytes(problem);
    }
}
