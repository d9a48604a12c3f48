package io.timeservice.security;

import java.util.List;

import io.timeservice.web.Callers;
import org.springframework.security.authentication.AbstractAuthenticationToken;

/**
 * A caller as the API sees it. Unauthenticated, it carries the bearer token it presented (erased once checked);
 * authenticated, it carries only a scope. Its name never contains the token, so it is safe in any log line.
 */
final class TokenAuthentication extends AbstractAuthenticationToken {

    private final String name;
    private final String caller;
    private String presentedToken;

    private TokenAuthentication(String name, String presentedToken, Scope scope, String caller) {
        super(scope == null ? List.of() : scope.authorities());
        this.name = name;
        this.presentedToken = presentedToken;
        this.caller = caller;
        setAuthenticated(scope != null);
    }

    /** A token read from a request, not yet checked. */
    static TokenAuthentication presented(String token) {
        return new TokenAuthentication("bearer", token, null, null);
    }

    /** A caller whose token was accepted with this scope; {@code caller} names the token (see {@link #caller}). */
    static TokenAuthentication granted(Scope scope, String caller) {
        return new TokenAuthentication(scope.wireName() + "-token", null, scope, caller);
    }

    /** Every caller while no token is configured: the service is open and grants both scopes. */
    static TokenAuthentication openAccess() {
        return new TokenAuthentication("open-access", null, Scope.WRITE, Callers.ANONYMOUS);
    }

    /** The scope of the caller's {@code Idempotency-Key}s: a digest of its token, or anonymous in open access. */
    String caller() {
        return caller;
    }

    @Override
    public Object getCredentials() {
        return presentedToken;
    }

    @Override
    public Object getPrincipal() {
        return name;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public void eraseCredentials() {
        presentedToken = null;
        super.eraseCredentials();
    }
}
