package io.timeservice.config;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Lets Tomcat send a small answer with a {@code Content-Length} in one write, instead of chunked in two.
 *
 * <p>Spring's message converters flush the output stream after writing a body, and a flush commits the response:
 * Tomcat then sends the headers with {@code Transfer-Encoding: chunked} and needs a second write for the last chunk.
 * This filter ignores the application's flushes; when the request ends, Tomcat finds the whole body still in its
 * response buffer and sends it with its length in one write (one system call per request less, measured in
 * docs/BENCHMARKS.md). A body larger than Tomcat's buffer still goes out as it is written, chunked, so nothing is
 * held beyond that buffer. No endpoint here streams, so no client waits for a flush.
 */
@Configuration(proxyBeanMethods = false)
class SingleWriteResponses {

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> singleWriteResponseFilter() {
        FilterRegistrationBean<OncePerRequestFilter> registration =
                new FilterRegistrationBean<>(new IgnoreFlushFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    static final class IgnoreFlushFilter extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            chain.doFilter(request, new IgnoreFlushResponse(response));
        }
    }

    private static final class IgnoreFlushResponse extends HttpServletResponseWrapper {

        private ServletOutputStream stream;

        IgnoreFlushResponse(HttpServletResponse response) {
            super(response);
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (stream == null) {
                stream = new IgnoreFlushStream(super.getOutputStream());
            }
            return stream;
        }

        @Override
        public void flushBuffer() {
            // Tomcat sends what is buffered when the request ends.
        }
    }

    private static final class IgnoreFlushStream extends ServletOutputStream {

        private final ServletOutputStream target;

        IgnoreFlushStream(ServletOutputStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            target.write(b);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            target.write(bytes, offset, length);
        }

        @Override
        public void flush() {
            // Tomcat sends what is buffered when the request ends.
        }

        @Override
        public void close() throws IOException {
            target.close();
        }

        @Override
        public boolean isReady() {
            return target.isReady();
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            target.setWriteListener(listener);
        }
    }
}
