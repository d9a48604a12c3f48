package io.timeservice.security;

import java.io.IOException;

import io.timeservice.web.ProblemType;
import io.timeservice.web.Problems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;

/**
 * Answers refused calls with the same RFC 9457 problem+json shape as every other error of the service
 * ({@code type}, {@code title}, {@code status}, {@code detail}, {@code instance}, {@code code}) and the
 * {@code WWW-Authenticate: Bearer} challenge of RFC 6750: 401 {@code unauthorized} without a valid token, 403
 * {@code forbidden} when the token lacks the scope. In protected mode (no token configured) a caller from another
 * machine gets 403 {@code protected_mode} instead, without a challenge: no token would help until the operator
 * configures one. Written here, not by Spring MVC, because the refusal happens in the security filter chain before
 * any controller runs.
 */
final class ProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler, RequestRejectedHandler {

    static final String REALM = "timeservice";

    private final boolean protectedMode;

    /** @param protectedMode no token is configured: every caller that needs one is a non-loopback client */
    ProblemResponses(boolean protectedMode) {
        this.protectedMode = protectedMode;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response,
                         AuthenticationException refusal) throws IOException {
        if (protectedMode) {
            refuseInProtectedMode(request, response);
            return;
        }
        boolean presentedBadToken = refusal instanceof BadCredentialsException;
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, presentedBadToken
                ? "Bearer realm=\"" + REALM + "\", error=\"invalid_token\", "
                        + "error_description=\"the bearer token is not valid\""
                : "Bearer realm=\"" + REALM + "\"");
        write(request, response, ProblemType.UNAUTHORIZED, presentedBadToken
                ? "the bearer token is not valid"
                : "this call needs a bearer token: send \"Authorization: Bearer <token>\"");
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response,
                       AccessDeniedException refusal) throws IOException {
        String needed = SecurityConfiguration.isSafe(request) ? Scope.READ.wireName() : Scope.WRITE.wireName();
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"" + REALM
                + "\", error=\"insufficient_scope\", scope=\"" + needed + "\"");
        write(request, response, ProblemType.FORBIDDEN,
                "this call needs a token with the " + needed + " scope");
    }

    /**
     * The firewall refused the request (a header, parameter or path it does not allow). Written here, without
     * content negotiation: the header that was refused may be {@code Accept} itself, which every later reading
     * refuses again. The refused value is not echoed.
     */
    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response,
                       RequestRejectedException refusal) throws IOException {
        if (response.isCommitted()) {
            return; // the answer has left; nothing can be said any more
        }
        response.resetBuffer();
        write(request, response, ProblemType.INVALID_REQUEST, Problems.FIREWALL_REFUSAL);
    }

    /** The answer Redis gives in its protected mode: what happened, and the two ways an operator can open access. */
    private static void refuseInProtectedMode(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        write(request, response, ProblemType.PROTECTED_MODE, "protected mode: no API token is configured, so this "
                + "service answers only clients on its own machine (loopback), not " + request.getRemoteAddr()
                + ". To let other clients in, configure tokens (timeservice.security.write-tokens and read-tokens, "
                + "or the environment variables TIMESERVICE_SECURITY_WRITE_TOKENS and "
                + "TIMESERVICE_SECURITY_READ_TOKENS) and send \"Authorization: Bearer <token>\"; or, on a trusted "
                + "network only, turn protected mode off with timeservice.security.open=true");
    }

    private static void write(HttpServletRequest request, HttpServletResponse response, ProblemType type,
                              String detail) throws IOException {
        Problems.write(response, Problems.problem(type, detail), Problems.instanceOf(request));
    }
}
