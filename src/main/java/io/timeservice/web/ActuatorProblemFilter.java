package io.timeservice.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Actuator answers some refusals with a status and no body, such as 404 for an unknown health group or metric
 * name. This filter, on {@code /actuator/*} only, gives such answers the service's problem+json body.
 */
@Configuration(proxyBeanMethods = false)
class ActuatorProblemFilter {

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> actuatorProblems() {
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(new BodilessErrors());
        registration.addUrlPatterns("/actuator/*");
        return registration;
    }

    static final class BodilessErrors extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            ContentCachingResponseWrapper buffered = new ContentCachingResponseWrapper(response);
            try {
                chain.doFilter(request, buffered);
            } finally {
                int status = buffered.getStatus();
                if (status >= 400 && buffered.getContentSize() == 0 && !response.isCommitted()
                        && !"HEAD".equals(request.getMethod())) {
                    HttpStatus known = HttpStatus.resolve(status);
                    String detail = known == null ? "refused" : known.getReasonPhrase();
                    Problems.write(buffered, Problems.problem(ProblemType.ofStatus(status),
                            HttpStatusCode.valueOf(status), detail), request.getRequestURI());
                }
                buffered.copyBodyToResponse();
            }
        }
    }
}
