package io.timeservice.push;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import io.timeservice.model.PushTarget;
import org.apache.hc.client5.http.async.methods.AbstractBinResponseConsumer;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.MalformedChunkCodingException;
import org.apache.hc.core5.http.MessageConstraintException;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.http2.config.H2Config;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.reactor.IOReactorStatus;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * Sends one push attempt without blocking: Apache HttpClient 5's minimal asynchronous client on its own I/O threads,
 * connections pooled per target and kept alive, HTTP/1.1 only (one request per connection, so closing a connection
 * ends one attempt and no other). The minimal client has no redirect, retry, cookie or authentication stage at all:
 * the full client ran its execution chain of such stages for every push although each was switched off. Every
 * connection resolves its host through {@link GuardedDnsResolver}, so a target the policy does not allow fails as
 * {@code refused} at connection time.
 *
 * <p>A target may be hostile. An answer's status line and each header line are read up to {@value #MAX_LINE_BYTES}
 * bytes, at most {@value #MAX_HEADERS} header fields (so a head holds at most 65 lines of that length), and at most
 * {@value #MAX_ANSWER_BYTES} bytes of its body; past a bound of the head the attempt ends as {@code protocol_error},
 * past the body's its status decides, and either way its connection is closed. Each attempt ends at its target's timeout over the whole exchange, the wait for a connection,
 * connecting, the head and {@code 1xx} answers included, at the latest one sweep of {@link AttemptDeadlines} later:
 * its connection is then closed at once, never handed back to the pool ({@link PushExchange}); a connection
 * still being opened then is closed as soon as it is open, before a byte is sent. An attempt's future
 * completes only after that, so a caller that counts attempts in flight (the pusher's {@code concurrency}) counts every
 * request still open at the target. An I/O thread that dies is noticed and the client replaced
 * ({@link RestartingClient}).
 */
public final class PushClient implements PushSender, AutoCloseable {

    static final int MAX_ANSWER_BYTES = 64 * 1024;
    /** The longest status line or header line of an answer (a folded header counts whole). */
    static final int MAX_LINE_BYTES = 8 * 1024;
    /** The most header fields in one answer's head. */
    static final int MAX_HEADERS = 64;
    private static final int MAX_CACHED_URIS = 10_000;
    private static final String USER_AGENT = "TimeService-push/1";
    /** How often the client's I/O reactor is looked at (a dead one is replaced). */
    static final long REACTOR_LOOK_MILLIS = 1_000;
    /**
     * Kept-alive connections unused this long are closed (within half as long again): before the 5 s after which
     * Node.js and Apache httpd close theirs, so a push never leaves on a connection the target is closing. A target
     * that closes sooner can still race a push, which then retries by the clock's policy.
     */
    static final TimeValue MAX_IDLE = TimeValue.ofSeconds(2);

    /** Each target's URL parsed once: parsing it per push showed in profiles. Bounded by the push clocks' targets. */
    private final Map<String, URI> uris = new java.util.concurrent.ConcurrentHashMap<>();
    /** Each timeout's request settings, made once: at most one per timeout a target may have. */
    private final Map<Long, RequestConfig> requestConfigs = new java.util.concurrent.ConcurrentHashMap<>();
    private final RestartingClient clients;
    private final AttemptDeadlines deadlines;
    private final LongSupplier wallClockMillis;
    private final ScheduledFuture<?> idleClosing;
    private final ScheduledFuture<?> reactorLooks;

    /**
     * @param maxConnections the most connections open at once, over all targets (each clock's concurrency bounds its
     *                       own share)
     * @param deadlines      runs the sweeps that end attempts taking longer than their timeout; its tasks must be quick
     */
    public PushClient(PushTargetPolicy policy, int ioThreads, int maxConnections, ScheduledExecutorService deadlines,
                      LongSupplier wallClockMillis) {
        this(policy, ioThreads, maxConnections, deadlines, wallClockMillis, PushMetrics.NONE);
    }

    /** @param metrics told of each restart of the client */
    public PushClient(PushTargetPolicy policy, int ioThreads, int maxConnections, ScheduledExecutorService deadlines,
                      LongSupplier wallClockMillis, PushMetrics metrics) {
        this(policy, ioThreads, maxConnections, deadlines, wallClockMillis, metrics, MAX_IDLE);
    }

    /** @param maxIdle how long a kept-alive connection may wait unused before it is closed (tests shorten it) */
    PushClient(PushTargetPolicy policy, int ioThreads, int maxConnections, ScheduledExecutorService deadlines,
               LongSupplier wallClockMillis, PushMetrics metrics, TimeValue maxIdle) {
        this.deadlines = new AttemptDeadlines((millis, sweep) -> deadlines.schedule(sweep, millis,
                TimeUnit.MILLISECONDS), System::nanoTime);
        this.wallClockMillis = wallClockMillis;
        GuardedDnsResolver resolver = new GuardedDnsResolver(policy);
        this.clients = new RestartingClient(() -> newClient(resolver, ioThreads, maxConnections),
                metrics::clientRestarted);
        // a connection the target closes for idleness just as a push goes out on it fails that push (seen in the
        // benchmark against Node.js, which closes after 5 s idle): closing ours sooner leaves the target no such race
        long look = Math.max(1, maxIdle.toMilliseconds() / 2);
        this.idleClosing = deadlines.scheduleWithFixedDelay(() -> clients.current().connections().pool()
                .closeIdle(maxIdle), look, look, TimeUnit.MILLISECONDS);
        this.reactorLooks = deadlines.scheduleWithFixedDelay(clients::check, REACTOR_LOOK_MILLIS,
                REACTOR_LOOK_MILLIS, TimeUnit.MILLISECONDS);
    }

    private static RestartingClient.Generation newClient(GuardedDnsResolver resolver, int ioThreads,
                                                         int maxConnections) {
        PoolingAsyncClientConnectionManager pool = PoolingAsyncClientConnectionManagerBuilder.create()
                .setDnsResolver(resolver)
                .setMaxConnTotal(maxConnections)
                .setMaxConnPerRoute(maxConnections)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.ofMilliseconds(PushTarget.MAX_TIMEOUT_MILLIS))
                        .setSocketTimeout(Timeout.ofMilliseconds(PushTarget.MAX_TIMEOUT_MILLIS))
                        .build())
                // one request per connection: an attempt's end closes its connection and no other attempt's
                .setDefaultTlsConfig(TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1).build())
                .build();
        ExchangeConnections connections = new ExchangeConnections(pool);
        CloseableHttpAsyncClient client = HttpAsyncClients.createMinimal(H2Config.DEFAULT, Http1Config.custom()
                        .setMaxLineLength(MAX_LINE_BYTES)
                        .setMaxHeaderCount(MAX_HEADERS)
                        .build(),
                IOReactorConfig.custom().setIoThreadCount(ioThreads).build(), connections);
        client.start();
        return new RestartingClient.Generation(client, connections);
    }

    /**
     * POSTs {@code body} to {@code target}, signed as {@code webhookId} at the wall clock's second now. The future
     * never fails: every way an attempt can end is a {@link PushOutcome}; it completes once the attempt's connection
     * is closed or back in the pool.
     */
    @Override
    public CompletableFuture<PushOutcome> post(PushTarget target, String webhookId, byte[] body) {
        return post(target, webhookId, body, Map.of());
    }

    /** Also sends {@code traceHeaders} (W3C trace context, outside the signed content), after the target's own. */
    @Override
    public CompletableFuture<PushOutcome> post(PushTarget target, String webhookId, byte[] body,
                                               Map<String, String> traceHeaders) {
        long timestamp = Math.floorDiv(wallClockMillis.getAsLong(), 1000);
        if (uris.size() > MAX_CACHED_URIS) {
            uris.clear(); // targets of deleted clocks: parsed again when still used
        }
        AsyncRequestBuilder request = AsyncRequestBuilder.post(uris.computeIfAbsent(target.url(), URI::create))
                .setEntity(body, ContentType.APPLICATION_JSON)
                .addHeader(HttpHeaders.USER_AGENT, USER_AGENT)
                .addHeader("webhook-id", webhookId)
                .addHeader("webhook-timestamp", Long.toString(timestamp));
        String signature = WebhookSignature.sign(target.secrets(), webhookId, timestamp, body);
        if (signature != null) {
            request.addHeader("webhook-signature", signature);
        }
        for (Map.Entry<String, String> header : target.headers().entrySet()) {
            request.setHeader(header.getKey(), header.getValue()); // a User-Agent of the target's replaces ours
        }
        for (Map.Entry<String, String> header : traceHeaders.entrySet()) {
            request.setHeader(header.getKey(), header.getValue());
        }
        return start(request, target.timeoutMillis());
    }

    /**
     * Sends a request shaped by its caller (a QStash message, issue 47): {@code method} to {@code url} with
     * {@code headers} (the caller's, signature included) and {@code body}, under the same SSRF check at connection,
     * answer bounds and deadline as any push. The future never fails.
     */
    public CompletableFuture<PushOutcome> send(String url, String method, Map<String, String> headers, byte[] body,
                                               long timeoutMillis) {
        AsyncRequestBuilder request = AsyncRequestBuilder.create(method).setUri(URI.create(url))
                .addHeader(HttpHeaders.USER_AGENT, USER_AGENT);
        String contentType = null;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            if (header.getKey().equalsIgnoreCase(HttpHeaders.CONTENT_TYPE)) {
                contentType = header.getValue();
            } else {
                request.setHeader(header.getKey(), header.getValue());
            }
        }
        if (body.length > 0 || contentType != null) {
            request.setEntity(body, contentType == null ? null : ContentType.parseLenient(contentType));
        }
        return start(request, timeoutMillis);
    }

    private CompletableFuture<PushOutcome> start(AsyncRequestBuilder request, long timeoutMillis) {
        PushExchange exchange = new PushExchange();
        String late = "no answer within " + timeoutMillis + " ms";
        AttemptDeadlines.Entry deadline = deadlines.track(timeoutMillis, () -> exchange.failed(
                PushOutcome.failed(PushOutcome.Kind.TIMEOUT, late)));
        exchange.outcome().whenComplete((done, never) -> deadline.cancel());
        send(clients.current(), request, timeoutMillis, exchange, true);
        return exchange.outcome();
    }

    /**
     * Sends {@code exchange} on {@code generation}'s client; once more on a new client when that one's reactor turns
     * out to be down before the exchange had a connection ({@code again}): nothing was sent then.
     */
    private void send(RestartingClient.Generation generation, AsyncRequestBuilder request, long timeoutMillis,
                      PushExchange exchange, boolean again) {
        HttpClientContext context = HttpClientContext.create();
        context.setRequestConfig(requestConfigs.computeIfAbsent(timeoutMillis, PushClient::requestConfig));
        context.setAttribute(ExchangeConnections.EXCHANGE, exchange);
        AnswerConsumer answer = new AnswerConsumer();
        FutureCallback<PushOutcome> ended = new FutureCallback<>() {
            @Override
            public void completed(PushOutcome answered) {
                exchange.answered(answered);
            }

            @Override
            public void failed(Exception failure) {
                if (answer.overlong) {
                    exchange.failed(answer.answered); // decided by its status; the rest was not read
                } else if (!retriedOnNewClient(generation, request, timeoutMillis, exchange, again)) {
                    exchange.failed(classify(failure));
                }
            }

            @Override
            public void cancelled() { // by the client closing
                exchange.failed(PushOutcome.failed(PushOutcome.Kind.CONNECT_ERROR, "cancelled: the client closed"));
            }
        };
        try {
            generation.client().execute(request.build(), answer, context, ended);
        } catch (RuntimeException refused) { // a client closed by a restart meanwhile
            ended.failed(refused);
        }
    }

    /**
     * The waits of an attempt: for a pooled connection, to connect, between bytes of the answer. An attempt that ends
     * (its deadline) while it waits or connects does not cancel them ({@link PushExchange}); these bounds end them.
     */
    @SuppressWarnings("deprecation") // the per-request connect timeout: the minimal client's lease reads it
    private static RequestConfig requestConfig(long timeoutMillis) {
        Timeout timeout = Timeout.ofMilliseconds(timeoutMillis);
        return RequestConfig.custom()
                .setConnectionRequestTimeout(timeout)
                .setConnectTimeout(timeout)
                .setResponseTimeout(timeout)
                .build();
    }

    /**
     * Whether a failure came from a reactor that is down, before the exchange had a connection, and the exchange was
     * sent again on a new client.
     */
    private boolean retriedOnNewClient(RestartingClient.Generation generation, AsyncRequestBuilder request,
                                       long timeoutMillis, PushExchange exchange, boolean again) {
        if (generation.client().getStatus() == IOReactorStatus.ACTIVE) {
            return false;
        }
        RestartingClient.Generation fresh = clients.restartIfDown(generation);
        if (!again || fresh == generation || !exchange.restart()) {
            return false;
        }
        send(fresh, request, timeoutMillis, exchange, false);
        return true;
    }

    /** How many times the client was replaced because its I/O reactor was down. */
    public long restarts() {
        return clients.restarts();
    }

    /** When the client was last replaced, or null. */
    public java.time.Instant lastRestart() {
        return clients.lastRestart();
    }

    /** The client's I/O reactor now: {@code ACTIVE} while it works. */
    public String reactorStatus() {
        return clients.status().name();
    }

    static PushOutcome classify(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof GuardedDnsResolver.TargetRefusedException refused) {
                return PushOutcome.failed(PushOutcome.Kind.REFUSED, refused.getMessage());
            }
            if (cause instanceof SocketTimeoutException || cause instanceof TimeoutException) {
                return PushOutcome.failed(PushOutcome.Kind.TIMEOUT, String.valueOf(cause.getMessage()));
            }
            if (cause instanceof HttpException || cause instanceof MessageConstraintException
                    || cause instanceof MalformedChunkCodingException) {
                // an answer that breaks HTTP/1.1 or the bounds of its head: the connection is closed
                return PushOutcome.failed(PushOutcome.Kind.PROTOCOL_ERROR, cause.getClass().getSimpleName() + ": "
                        + cause.getMessage());
            }
        }
        return PushOutcome.failed(PushOutcome.Kind.CONNECT_ERROR, failure.getClass().getSimpleName() + ": "
                + failure.getMessage());
    }

    /**
     * What a 429 or 503 asks for in {@code Retry-After}, in milliseconds from {@code nowMillis}: delay-seconds or an
     * HTTP date in any of its three forms ({@link HttpDates}, RFC 9110); null when absent or unreadable.
     */
    static Long retryAfterMillis(String value, long nowMillis) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String trimmed = value.trim();
        if (trimmed.chars().allMatch(Character::isDigit)) {
            return trimmed.length() > 12 ? Long.MAX_VALUE : Long.parseLong(trimmed) * 1000;
        }
        java.time.Instant at = HttpDates.parse(trimmed, java.time.Instant.ofEpochMilli(nowMillis));
        return at == null ? null : Math.max(0, at.toEpochMilli() - nowMillis);
    }

    @Override
    public void close() {
        idleClosing.cancel(false);
        reactorLooks.cancel(false);
        clients.close();
    }

    /** Decides by the status line and headers; reads at most {@link #MAX_ANSWER_BYTES} of the body. */
    private final class AnswerConsumer extends AbstractBinResponseConsumer<PushOutcome> {

        /** The outcome by the answer's status, once its head is read; read by the failure after an overlong body. */
        private volatile PushOutcome answered;
        /** The body went past {@link #MAX_ANSWER_BYTES}: the answer counts by its status although it failed. */
        private volatile boolean overlong;
        private long read;

        @Override
        protected void start(HttpResponse response, ContentType contentType) {
            int status = response.getCode();
            Long retryAfter = null;
            if (status == 429 || status == 503) {
                Header header = response.getFirstHeader("Retry-After");
                retryAfter = retryAfterMillis(header == null ? null : header.getValue(), wallClockMillis.getAsLong());
            }
            answered = PushOutcome.answered(status, retryAfter);
        }

        @Override
        protected int capacityIncrement() {
            return MAX_ANSWER_BYTES;
        }

        @Override
        protected void data(ByteBuffer src, boolean endOfStream) throws IOException {
            read += src.remaining();
            src.position(src.limit());
            if (read > MAX_ANSWER_BYTES) {
                overlong = true; // decided by its status: the rest is not read, the connection closes
                throw new IOException("an answer over " + MAX_ANSWER_BYTES + " bytes");
            }
        }

        @Override
        protected PushOutcome buildResult() {
            return answered;
        }

        @Override
        public void releaseResources() {
        }
    }
}
