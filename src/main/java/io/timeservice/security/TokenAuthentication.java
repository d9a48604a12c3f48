package io.timeservice.security;

import java.util.List;

import org.springframework.security.authentication.AbstractAuthenticationToken;

/**
 * A caller as the API sees it. Unauthenticated, it carries the bearer token it presented (erased once checked);
 * authenticated, it carries only a scope. Its name never contains the token, so it is safe in any log line.
 */
final class TokenAuthentication extends AbstractAuthenticationToken {

    private final String name;
    private String presentedToken;

    private TokenAuthentication(String name, String presentedToken, Scope scope) {
        super(scope == null ? List.of() : scope.authorities());
        this.name = name;
        this.presentedToken = presentedToken;
        setAuthenticated(scope != null);
    }

    /** A token read from a request, not yet checked. */
    static TokenAuthentication presented(String token) {
        return new TokenAuthentication("bearer", token, null);
    }

    /** A caller whose token was accepted with this scope. */
    static TokenAuthentication granted(Scope scope) {
        return new TokenAuthentication(scope.wireName() + "-token", null, scope);
    }

    /** Every caller while no token is configured: the service is open and grants both scopes. */
    static TokenAuthentication openAccess() {
        return new TokenAuthentication("open-access", null, Scope.WRITE);
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
