package io.timeservice.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.IdempotencyRules;
import io.timeservice.model.ProblemException;
import io.timeservice.store.IdempotencyKey;
import io.timeservice.store.IdempotencyStore;
import io.timeservice.store.KeptAnswer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * The {@code Idempotency-Key} header (draft-ietf-httpapi-idempotency-key-header) on the calls that change state:
 * {@code POST /timers}, {@code /batch}, {@code /clock/advance} (and each with {@code /clocks/{clock}}), and the
 * delivery calls ack, ack many, nack, extend, redrive and dead delete. A request with the header is begun in the
 * {@link IdempotencyStore} under its key, scoped to the clock and the caller, with its fingerprint (method, path and
 * query, SHA-256 of the body): the first runs and its answer is kept when {@link IdempotencyRules#keeps} says so; a
 * repeat gets the kept answer with {@code Idempotent-Replayed: true}; other refusals are the store's. The answer to
 * a settlement (ack, ack many, nack, extend) is kept for the shorter {@code settlementRetention}: only its own
 * client's retries repeat it. Requests without the header, and other calls, pass untouched.
 */
final class IdempotencyFilter extends HttpFilter {

    static final String HEADER = "Idempotency-Key";
    static final String REPLAYED = "Idempotent-Replayed";
    static final String DEFAULT_CLOCK = "default";

    private static final Logger log = LoggerFactory.getLogger(IdempotencyFilter.class);
    private static final List<String> KEPT_HEADERS = List.of(HttpHeaders.ETAG, HttpHeaders.LOCATION,
            HttpHeaders.CONTENT_TYPE, HttpHeaders.RETRY_AFTER);
    /** After an optional {@code /clocks/{clock}}: the POSTs that take a key. */
    private static final Pattern POSTS = Pattern.compile("/timers|/batch|/advance|/deliveries/ack"
            + "|/deliveries/[^/]+/(ack|nack|extend)|/deliveries/dead/[^/]+/redrive");
    private static final Pattern DELETES = Pattern.compile("/deliveries/dead/[^/]+");
    /** After an optional {@code /clocks/{clock}}: the settlements among {@link #POSTS}. */
    private static final Pattern SETTLEMENTS = Pattern.compile("/deliveries/ack|/deliveries/[^/]+/(ack|nack|extend)");

    private final IdempotencyStore store;
    private final int maxBodyBytes;
    private final Duration settlementRetention;

    IdempotencyFilter(IdempotencyStore store, int maxBodyBytes, Duration settlementRetention) {
        this.store = store;
        this.maxBodyBytes = maxBodyBytes;
        this.settlementRetention = settlementRetention;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String header = request.getHeader(HEADER);
        String clock = clockOf(request.getMethod(), request.getRequestURI());
        if (header == null || clock == null) {
            chain.doFilter(request, response);
            return;
        }
        byte[] body;
        IdempotencyKey key;
        IdempotencyStore.Begun begun;
        try {
            key = new IdempotencyKey(clock, caller(request), IdempotencyRules.requireKey(header));
            body = request.getInputStream().readNBytes(maxBodyBytes + 1);
            if (body.length > maxBodyBytes) {
                throw new ProblemException(ErrorCode.PAYLOAD_TOO_LARGE, "the request body is larger than "
                        + maxBodyBytes + " bytes (timeservice.limits.max-body-bytes)");
            }
            begun = store.begin(key, fingerprint(request, body));
        } catch (ProblemException refused) {
            refuse(request, response, refused);
            return;
        }
        if (begun instanceof IdempotencyStore.Begun.Replay replay) {
            replay(response, replay.answer());
            return;
        }
        run(request, response, chain, key, (IdempotencyStore.Begun.Run) begun, body);
    }

    private void run(HttpServletRequest request, HttpServletResponse response, FilterChain chain, IdempotencyKey key,
                     IdempotencyStore.Begun.Run run, byte[] body) throws IOException, ServletException {
        ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
        boolean kept = false;
        try {
            chain.doFilter(new ReadAgain(request, body), answer);
            if (IdempotencyRules.keeps(answer.getStatus())) {
                if (isSettlement(request.getRequestURI())) {
                    store.keep(key, run, kept(request, body, answer), settlementRetention);
                } else {
                    store.keep(key, run, kept(request, body, answer));
                }
                kept = true;
            }
        } catch (ProblemException notKept) {
            // the change (if any) is done and its answer goes out; only the key could not keep it
            log.warn("the answer to {} {} could not be kept for its Idempotency-Key: {}", request.getMethod(),
                    request.getRequestURI(), notKept.getMessage());
        } finally {
            if (!kept) {
                releaseQuietly(key, run);
            }
            answer.copyBodyToResponse();
        }
    }

    private KeptAnswer kept(HttpServletRequest request, byte[] body, ContentCachingResponseWrapper answer) {
        List<KeptAnswer.Header> headers = new ArrayList<>();
        for (String name : KEPT_HEADERS) {
            String value = name.equals(HttpHeaders.CONTENT_TYPE) ? answer.getContentType() : answer.getHeader(name);
            if (value != null) {
                headers.add(new KeptAnswer.Header(name, value));
            }
        }
        return new KeptAnswer(fingerprint(request, body), answer.getStatus(), headers,
                answer.getContentAsByteArray());
    }

    private void releaseQuietly(IdempotencyKey key, IdempotencyStore.Begun.Run run) {
        try {
            store.release(key, run);
        } catch (ProblemException e) {
            log.warn("could not release an Idempotency-Key; it is free again after its lease: {}", e.getMessage());
        }
    }

    private static void replay(HttpServletResponse response, KeptAnswer answer) throws IOException {
        response.setStatus(answer.status());
        for (KeptAnswer.Header header : answer.headers()) {
            if (header.name().equals(HttpHeaders.CONTENT_TYPE)) {
                response.setContentType(header.value());
            } else {
                response.setHeader(header.name(), header.value());
            }
        }
        response.setHeader(REPLAYED, "true");
        byte[] body = answer.body();
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, ProblemException refused)
            throws IOException {
        ProblemDetail problem = Problems.problem(ProblemType.of(refused.code()), refused.getMessage());
        if (problem.getStatus() == 409) {
            response.setHeader(HttpHeaders.RETRY_AFTER,
                    Integer.toString(IdempotencyRules.IN_USE_RETRY_AFTER_SECONDS));
        }
        Problems.write(response, problem, Problems.instanceOf(request));
    }

    /**
     * The clock a call that takes a key addresses ({@value #DEFAULT_CLOCK} without {@code /clocks/{clock}}), or
     * null for every other call.
     */
    static String clockOf(String method, String path) {
        boolean post = method.equals("POST");
        if (!post && !method.equals("DELETE")) {
            return null;
        }
        String clock = DEFAULT_CLOCK;
        String rest = path;
        if (path.startsWith("/clocks/")) {
            int slash = path.indexOf('/', "/clocks/".length());
            if (slash < 0) {
                return null;
            }
            clock = path.substring("/clocks/".length(), slash);
            rest = path.substring(slash);
        } else if (path.equals("/clock/advance")) {
            return post ? DEFAULT_CLOCK : null;
        }
        return (post ? POSTS : DELETES).matcher(rest).matches() ? clock : null;
    }

    /** Whether the POST to {@code path} (one {@link #clockOf} accepts) settles a delivery. */
    static boolean isSettlement(String path) {
        String rest = path.startsWith("/clocks/") ? path.substring(path.indexOf('/', "/clocks/".length())) : path;
        return SETTLEMENTS.matcher(rest).matches();
    }

    private static String caller(HttpServletRequest request) {
        return request.getAttribute(Callers.ATTRIBUTE) instanceof String caller ? caller : Callers.ANONYMOUS;
    }

    /** Method, path and query, and the SHA-256 of the body: what a repeat must match. */
    static String fingerprint(HttpServletRequest request, byte[] body) {
        try {
            String digest = Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(MessageDigest.getInstance("SHA-256").digest(body));
            String query = request.getQueryString();
            return request.getMethod() + " " + request.getRequestURI() + (query == null ? "" : "?" + query) + " "
                    + digest;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** The request with the body the filter read, for the controller to read again. */
    private static final class ReadAgain extends HttpServletRequestWrapper {

        private final ByteArrayInputStream body;

        ReadAgain(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = new ByteArrayInputStream(body);
        }

        @Override
        public ServletInputStream getInputStream() {
            return new ServletInputStream() {
                @Override
                public int read() {
                    return body.read();
                }

                @Override
                public int read(byte[] into, int offset, int length) {
                    return body.read(into, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return body.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("bodies are read blocking");
                }
            };
        }

        @Override
        public int getContentLength() {
            return body.available();
        }
    }
}
