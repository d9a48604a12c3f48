package io.timeservice.web;

import java.io.IOException;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Lets Tomcat send a small answer with a {@code Content-Length} in one write, instead of chunked in two.
 *
 * <p>Spring's message converters flush the output stream after writing a body, and a flush commits the response:
 * Tomcat then sends the headers with {@code Transfer-Encoding: chunked} and needs a second write for the last chunk.
 * This filter ignores the application's flushes and, once the application is done, sets the length of what it wrote
 * and flushes once: headers and body leave in one write (one system call per request less, measured in
 * docs/BENCHMARKS.md). It wraps the request's own dispatch only (an error page's is inside it), as a plain filter: a
 * {@code OncePerRequestFilter} would set, read and remove a request attribute on every request for nothing. The flush
 * happens before the servlet returns, so graceful shutdown, which waits for requests inside servlets, still sees the
 * answer out before it stops the connector. A body larger than Tomcat's buffer still
 * goes out as it is written, chunked, so nothing is held beyond that buffer. No endpoint here streams.
 */
@Configuration(proxyBeanMethods = false)
class SingleWriteResponses {

    @Bean
    FilterRegistrationBean<IgnoreFlushFilter> singleWriteResponseFilter() {
        FilterRegistrationBean<IgnoreFlushFilter> registration = new FilterRegistrationBean<>(new IgnoreFlushFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.setDispatcherTypes(DispatcherType.REQUEST);
        return registration;
    }

    static final class IgnoreFlushFilter extends HttpFilter {

        @Override
        protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            IgnoreFlushResponse wrapped = new IgnoreFlushResponse(response);
            chain.doFilter(request, wrapped);
            if (!response.isCommitted() && wrapped.bytesWritten() > 0 && response.getHeader("Content-Length") == null) {
                response.setContentLengthLong(wrapped.bytesWritten());
            }
            response.flushBuffer();
        }
    }

    private static final class IgnoreFlushResponse extends HttpServletResponseWrapper {

        private IgnoreFlushStream stream;

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
            // the filter flushes once, when the application is done
        }

        long bytesWritten() {
            return stream == null ? 0 : stream.written;
        }
    }

    private static final class IgnoreFlushStream extends ServletOutputStream {

        private final ServletOutputStream target;
        long written;

        IgnoreFlushStream(ServletOutputStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            target.write(b);
            written++;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            target.write(bytes, offset, length);
            written += length;
        }

        @Override
        public void flush() {
            // the filter flushes once, when the application is done
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
