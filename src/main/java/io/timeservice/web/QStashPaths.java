package io.timeservice.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * QStash takes a publish's destination as the rest of the path, {@code /v2/publish/https://example.com/hook?x=1}
 * (issue 47). Such a path has {@code //} in it, which the security firewall rightly refuses as not normalized; so this
 * filter, first of all, takes the destination off the path (with the query, which is the destination's) into the
 * request attribute {@link #DESTINATION} and hands on the request as {@code /v2/publish/}{@value #SEGMENT}, one plain
 * segment the controller's {@code /v2/publish/{destination}} matches. A schedule's create,
 * {@code POST /v2/schedules/<destination>}, is taken apart the same way; its other calls name a schedule id.
 */
@Configuration(proxyBeanMethods = false)
class QStashPaths {

    static final String PREFIX = "/v2/publish/";
    static final String SCHEDULES = "/v2/schedules/";
    static final String DESTINATION = QStashPaths.class.getName() + ".destination";
    static final String SEGMENT = "destination";

    @Bean
    FilterRegistrationBean<DestinationFilter> qstashDestinationFilter() {
        FilterRegistrationBean<DestinationFilter> registration = new FilterRegistrationBean<>(new DestinationFilter());
        registration.addUrlPatterns("/v2/publish/*", "/v2/schedules/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    static final class DestinationFilter extends HttpFilter {

        @Override
        protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            String uri = request.getRequestURI();
            String context = request.getContextPath();
            String prefix = uri.startsWith(context + PREFIX) ? PREFIX
                    : uri.startsWith(context + SCHEDULES) && "POST".equals(request.getMethod()) ? SCHEDULES : null;
            if (prefix == null) {
                chain.doFilter(request, response);
                return;
            }
            String destination = uri.substring(context.length() + prefix.length());
            if (request.getQueryString() != null) {
                destination += "?" + request.getQueryString();
            }
            request.setAttribute(DESTINATION, destination);
            request.setAttribute(Problems.SENT_PATH, uri);
            String path = prefix + SEGMENT;
            chain.doFilter(new HttpServletRequestWrapper(request) {
                @Override
                public String getRequestURI() {
                    return context + path;
                }

                @Override
                public StringBuffer getRequestURL() {
                    StringBuffer url = new StringBuffer(super.getRequestURL());
                    url.setLength(url.indexOf(prefix) + prefix.length());
                    return url.append(SEGMENT);
                }

                @Override
                public String getServletPath() {
                    return path;
                }

                @Override
                public String getPathInfo() {
                    return null;
                }

                @Override
                public String getQueryString() {
                    return null;
                }
            }, response);
        }
    }
}
