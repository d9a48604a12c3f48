package io.timeservice.security;

import java.util.Set;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.web.Callers;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AuthenticationEntryPointFailureHandler;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.security.web.header.HeaderWriterFilter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Access control for the API, with Spring Security.
 *
 * <p>Scopes: GET, HEAD and OPTIONS on the queue ({@code /timers}, {@code /schedules}, {@code /clock}, {@code /clocks}, {@code /queue},
 * {@code /deliveries}, {@code /demo})
 * and on the actuator need {@code read}; every other method on any path needs {@code write}, which includes read.
 * Open to everybody: {@code /actuator/health} (details only for callers granted a scope), and GET of everything else
 * — the web page and its assets, Swagger UI and {@code /v3/api-docs}, none of which carries queue data.
 *
 * <p>With no token configured the service is in protected mode, like Redis without a password: callers on its own
 * machine ({@link LoopbackClients}) are authenticated as {@code open-access} with both scopes, so the same rules grant
 * them everything (and health shows its details); every other caller stays anonymous, gets the public paths above
 * and a bare health status, and is answered 403 {@code protected_mode} everywhere else ({@link ProblemResponses}).
 * {@code timeservice.security.open=true} grants {@code open-access} to every caller instead, and one WARN at
 * start-up says so. The client's address is the socket's peer: {@code application.properties} sets
 * {@code server.forward-headers-strategy=none}, so that Boot does not trust {@code X-Forwarded-For} by itself on a
 * cloud platform it detects; an operator behind a proxy may enable it.
 *
 * <p>Stateless: no session, no CSRF token (nothing here uses cookies), no form login, no HTTP Basic, no generated
 * password (the {@link AuthenticationManager} bean below makes Boot's in-memory user back off).
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    private static final RequestMatcher SAFE = SecurityConfiguration::isSafe;
    private static final RequestMatcher UNSAFE = request -> !isSafe(request);
    private static final RequestMatcher QUEUE_PATHS = new OrRequestMatcher(
            PathPatternRequestMatcher.pathPattern("/timers/**"),
            PathPatternRequestMatcher.pathPattern("/schedules/**"),
            PathPatternRequestMatcher.pathPattern("/batch"),
            PathPatternRequestMatcher.pathPattern("/clock/**"),
            PathPatternRequestMatcher.pathPattern("/clocks/**"),
            PathPatternRequestMatcher.pathPattern("/queue/**"),
            PathPatternRequestMatcher.pathPattern("/deliveries/**"),
            PathPatternRequestMatcher.pathPattern("/demo/**"),
            PathPatternRequestMatcher.pathPattern("/v2/**")); // QStash's and Cloud Tasks' drop-in APIs (docs/DROP-IN.md)

    private final TimeServiceProperties.Security settings;

    SecurityConfiguration(TimeServiceProperties properties, Environment environment) {
        this.settings = properties.security();
        if (settings.openActuator() && ManagementPortType.get(environment) != ManagementPortType.DIFFERENT) {
            throw new IllegalStateException("timeservice.security.open-actuator=true needs management.server.port "
                    + "set to a port other than server.port, one that only the scraper can reach; otherwise "
                    + "metrics would be open on the API's own port");
        }
    }

    static boolean isSafe(HttpServletRequest request) {
        return SAFE_METHODS.contains(request.getMethod());
    }

    /** Checks presented tokens; its presence as a bean also stops Boot from creating a user with a password. */
    @Bean
    AuthenticationManager tokenAuthenticationManager() {
        BearerTokens tokens = new BearerTokens(settings.readTokens(), settings.writeTokens());
        return authentication -> {
            String token = (String) authentication.getCredentials();
            Scope scope = tokens.scopeOf(token);
            if (authentication instanceof TokenAuthentication presented) {
                presented.eraseCredentials();
            }
            if (scope == null) {
                throw new BadCredentialsException("the bearer token is not valid");
            }
            return TokenAuthentication.granted(scope, BearerTokens.callerOf(token));
        };
    }

    /**
     * No Micrometer observation per security filter, authentication and authorization: on the request path they cost
     * more than the checks themselves (profile in docs/BENCHMARKS.md). Refusals are still counted by status in
     * {@code http.server.requests}.
     */
    @Bean
    SecurityObservationSettings noSecurityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    /**
     * Spring Security's strict firewall with its own checks, answered without a regular expression for printable
     * ASCII names and values ({@link AsciiFirstPredicate}): the same requests are refused.
     */
    @Bean
    StrictHttpFirewall httpFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(new AsciiFirstPredicate(StrictHttpFirewall.ALLOWED_HEADER_NAMES));
        firewall.setAllowedHeaderValues(new AsciiFirstPredicate(StrictHttpFirewall.ALLOWED_HEADER_VALUES));
        firewall.setAllowedParameterNames(new AsciiFirstPredicate(StrictHttpFirewall.ALLOWED_PARAMETER_NAMES));
        firewall.setAllowedParameterValues(new AsciiFirstPredicate(StrictHttpFirewall.ALLOWED_PARAMETER_VALUES));
        return firewall;
    }

    /**
     * Requests the firewall refuses get problem+json 400 {@code invalid_request}, written directly: Spring Security's
     * default sends a bare error, whose error page then read the refused header again and answered an empty body.
     */
    @Bean
    RequestRejectedHandler requestRejectedHandler() {
        return new ProblemResponses(settings.protectedMode());
    }

    /** Without tokens the converter alone decides who is {@code open-access}; there is nothing left to check. */
    private static AuthenticationManager grantAsIs() {
        return granted -> granted;
    }

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, AuthenticationManager tokenAuthenticationManager)
            throws Exception {
        ProblemResponses problems = new ProblemResponses(settings.protectedMode());
        AuthenticationFilter authentication;
        if (settings.enabled()) {
            authentication = new AuthenticationFilter(tokenAuthenticationManager, new BearerTokenConverter());
            log.info("API access needs a bearer token: {} read token(s), {} write token(s); actuator metrics {}",
                    settings.readTokens().size(), settings.writeTokens().size(),
                    settings.openActuator() ? "open on the management port" : "need the read scope");
        } else if (settings.protectedMode()) {
            authentication = new AuthenticationFilter(grantAsIs(), request -> LoopbackClients.isLoopback(request)
                    ? TokenAuthentication.openAccess() : null);
            log.info("No API token is configured: protected mode, the API and the actuator answer only clients on "
                    + "this machine (loopback) and refuse others with 403 protected_mode. Configure "
                    + "timeservice.security.read-tokens / write-tokens, or set timeservice.security.open=true on a "
                    + "trusted network");
        } else {
            authentication = new AuthenticationFilter(grantAsIs(), request -> TokenAuthentication.openAccess());
            log.warn("No API token is configured (timeservice.security.read-tokens / write-tokens) and "
                    + "timeservice.security.open=true: the API is open, and anyone who can reach this port can read, "
                    + "change and wipe the queue");
        }
        authentication.setSuccessHandler((request, response, granted) -> {
            if (granted instanceof TokenAuthentication caller && caller.caller() != null) {
                request.setAttribute(Callers.ATTRIBUTE, caller.caller()); // the scope of its Idempotency-Keys
            }
        });
        authentication.setFailureHandler(new AuthenticationEntryPointFailureHandler(problems));
        authentication.setSecurityContextRepository(new RequestAttributeSecurityContextRepository());

        http.csrf(AbstractHttpConfigurer::disable)
                // No session at all: without the session management filter (and its URL-encoding response wrapper)
                // the context lives in a request attribute only.
                .sessionManagement(AbstractHttpConfigurer::disable)
                .securityContext(context -> context.securityContextRepository(
                        new RequestAttributeSecurityContextRepository()))
                // The security headers are written before the request is handled rather than when the response
                // commits, which spares every response write a wrapper; nothing here sets these headers itself.
                .headers(headers -> headers.addObjectPostProcessor(new ObjectPostProcessor<HeaderWriterFilter>() {
                    @Override
                    public <F extends HeaderWriterFilter> F postProcess(F filter) {
                        filter.setShouldWriteHeadersEagerly(true);
                        return filter;
                    }
                }))
                .requestCache(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .addFilterAt(authentication, BasicAuthenticationFilter.class)
                .exceptionHandling(errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .authorizeHttpRequests(requests -> {
                    requests.dispatcherTypeMatchers(DispatcherType.ERROR).permitAll();
                    // Changes to the queue first: the actuator's matchers below cost more than the check itself,
                    // and no actuator path is a queue path, so the order decides nothing else.
                    requests.requestMatchers(new AndRequestMatcher(UNSAFE, QUEUE_PATHS))
                            .hasAuthority(Scope.WRITE_AUTHORITY);
                    // QStash's signing keys are secrets: shown to writers only
                    requests.requestMatchers(PathPatternRequestMatcher.pathPattern("/v2/keys"))
                            .hasAuthority(Scope.WRITE_AUTHORITY);
                    requests.requestMatchers(EndpointRequest.to("health")).permitAll();
                    if (settings.openActuator()) {
                        requests.requestMatchers(EndpointRequest.toAnyEndpoint()).permitAll();
                    }
                    requests.requestMatchers(EndpointRequest.toAnyEndpoint()).hasAuthority(Scope.READ_AUTHORITY)
                            .requestMatchers(new AndRequestMatcher(SAFE, QUEUE_PATHS))
                            .hasAuthority(Scope.READ_AUTHORITY)
                            .requestMatchers(SAFE).permitAll()
                            .anyRequest().hasAuthority(Scope.WRITE_AUTHORITY);
                });
        return http.build();
    }
}
