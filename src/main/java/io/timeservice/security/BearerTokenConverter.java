package io.timeservice.security;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.AuthenticationConverter;

/**
 * Reads {@code Authorization: Bearer <token>} (RFC 6750 section 2.1; the scheme is case-insensitive). No header,
 * or a header for another scheme, means no token; a Bearer header whose token is malformed is refused like a wrong
 * token. Tokens are read from the header only, never from the query string, where they would end up in logs.
 */
final class BearerTokenConverter implements AuthenticationConverter {

    private static final Pattern BEARER = Pattern.compile("^Bearer +([A-Za-z0-9\\-._~+/]+=*) *$",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern BEARER_SCHEME = Pattern.compile("^Bearer( .*)?$",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    @Override
    public Authentication convert(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !BEARER_SCHEME.matcher(header).matches()) {
            return null;
        }
        Matcher matcher = BEARER.matcher(header);
        if (!matcher.matches()) {
            throw new BadCredentialsException("the Authorization header is not \"Bearer <token>\"");
        }
        return TokenAuthentication.presented(matcher.group(1));
    }
}
