package io.timeservice.web;

import java.io.IOException;
import java.time.Duration;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Bounds the request bodies the API reads ({@code /timers}, {@code /timers/*}, {@code /clock/advance}, {@code /batch}
 * and everything under {@code /clocks/}): at most
 * {@code timeservice.limits.max-body-bytes}, or {@code max-snapshot-bytes} for a snapshot
 * ({@code /clocks/{clock}/snapshot}) (413 {@code payload_too_large}, on the declared Content-Length before
 * a byte is read, or as soon as a chunked body grows past it) and at most {@code body-read-timeout} for the whole
 * body, however it is paced (400 {@code invalid_request}). Tomcat's connection timeout bounds each read, not their
 * sum, so without the deadline a client that trickles a byte now and then could hold a worker thread for long.
 *
 * <p>The limits apply when the body is first read, so a request refused before that (401, 404, 415, ...) keeps its
 * own answer.
 */
@Configuration(proxyBeanMethods = false)
class RequestBodyLimits {

    @Bean
    FilterRegistrationBean<LimitFilter> requestBodyLimitFilter(TimeServiceProperties properties) {
        TimeServiceProperties.Limits limits = properties.limits();
        FilterRegistrationBean<LimitFilter> registration = new FilterRegistrationBean<>(
                new LimitFilter(limits.maxBodyBytes(), limits.maxSnapshotBytes().toBytes(), limits.bodyReadTimeout()));
        registration.addUrlPatterns("/timers", "/timers/*", "/clock/advance", "/batch", "/clocks/*");
        // The request's own dispatch, as a plain filter: a OncePerRequestFilter's request attribute would cost every
        // request a set, a read and a removal, and only that dispatch reads a body.
        registration.setDispatcherTypes(DispatcherType.REQUEST);
        registration.setOrder(IdempotencyConfiguration.ORDER - 1); // the key's filter reads bodies within the limits
        return registration;
    }

    static final class LimitFilter extends HttpFilter {

        private final int maxBodyBytes;
        private final long maxSnapshotBytes;
        private final Duration bodyReadTimeout;

        LimitFilter(int maxBodyBytes, long maxSnapshotBytes, Duration bodyReadTimeout) {
            this.maxBodyBytes = maxBodyBytes;
            this.maxSnapshotBytes = maxSnapshotBytes;
            this.bodyReadTimeout = bodyReadTimeout;
        }

        @Override
        protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            chain.doFilter(new LimitedRequest(request, isSnapshot(request) ? maxSnapshotBytes : maxBodyBytes),
                    response);
        }

        /** {@code /clocks/{clock}/snapshot}: a saved clock, which has its own limit. */
        private static boolean isSnapshot(HttpServletRequest request) {
            String path = request.getRequestURI();
            return path.startsWith("/clocks/") && path.endsWith("/snapshot")
                    && path.indexOf('/', "/clocks/".length()) == path.length() - "/snapshot".length();
        }

        private final class LimitedRequest extends HttpServletRequestWrapper {

            private final long limit;
            private LimitedBody body;

            LimitedRequest(HttpServletRequest request, long limit) {
                super(request);
                this.limit = limit;
            }

            @Override
            public ServletInputStream getInputStream() throws IOException {
                if (body == null) {
                    long declared = getContentLengthLong();
                    if (declared > limit) {
                        throw tooLarge("is " + declared + " bytes", limit);
                    }
                    body = new LimitedBody(super.getInputStream(), limit,
                            System.nanoTime() + bodyReadTimeout.toNanos());
                }
                return body;
            }
        }

        /** Counts what arrives and watches the deadline after every read; a failed read is the client's. */
        private final class LimitedBody extends ServletInputStream {

            private final ServletInputStream in;
            private final long limit;
            private final long deadline;
            private long received;

            LimitedBody(ServletInputStream in, long limit, long deadline) {
                this.in = in;
                this.limit = limit;
                this.deadline = deadline;
            }

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                int read;
                try {
                    read = in.read(buffer, offset, length);
                } catch (IOException e) {
                    throw invalidRequest("the body could not be read completely");
                }
                if (read < 0) {
                    return read;
                }
                received += read;
                if (received > limit) {
                    throw tooLarge("exceeds the limit", limit);
                }
                if (System.nanoTime() - deadline > 0) {
                    throw invalidRequest("the body took longer than " + bodyReadTimeout.toMillis() + " ms to arrive");
                }
                return read;
            }

            @Override
            public boolean isFinished() {
                return in.isFinished();
            }

            @Override
            public boolean isReady() {
                return in.isReady();
            }

            @Override
            public void setReadListener(ReadListener listener) {
                in.setReadListener(listener);
            }
        }

        private static ProblemException tooLarge(String size, long limit) {
            return new ProblemException(ErrorCode.PAYLOAD_TOO_LARGE, "the request body " + size + "; the limit is "
                    + limit + " bytes");
        }

        private static ProblemException invalidRequest(String detail) {
            return new ProblemException(ErrorCode.INVALID_REQUEST, detail);
        }
    }
}
