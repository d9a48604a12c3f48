package io.timeservice.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The operator console (docs/CONSOLE.md): static HTML, CSS and JavaScript modules in {@code static/console}, served
 * from the jar at {@code /console/} ({@code /console} redirects there). Every answer under {@code /console} carries
 * a strict Content-Security-Policy: scripts, styles and calls only from this origin, no inline script or style, no
 * plugins, frames or form posts, so nothing loads from a CDN and an id or payload that slipped into markup could not
 * run. The pages carry no queue data: that comes from the API, with the caller's bearer token.
 */
@Configuration(proxyBeanMethods = false)
class ConsolePages implements WebMvcConfigurer {

    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/console", "/console/");
        registry.addViewController("/console/").setViewName("forward:/console/index.html");
    }

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> consoleContentSecurityPolicy() {
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
                new OncePerRequestFilter() {
                    @Override
                    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
                                                    FilterChain chain) throws ServletException, IOException {
                        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
                        chain.doFilter(request, response);
                    }
                });
        registration.addUrlPatterns("/console", "/console/*");
        return registration;
    }
}
