package io.timeservice.push;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import io.timeservice.model.PushTarget;
import org.apache.hc.client5.http.async.methods.AbstractBinResponseConsumer;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.http2.config.H2Config;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * Sends one push attempt without blocking: Apache HttpClient 5's minimal asynchronous client on its own I/O threads,
 * connections pooled per target and kept alive. The minimal client has no redirect, retry, cookie or authentication
 * stage at all: the full client ran its execution chain of such stages for every push although each was switched
 * off. Every connection resolves its host through {@link GuardedDnsResolver}, so a target the policy does not allow
 * fails as {@code refused} at connection time. An attempt ends by its answer's status and headers; at most
 * {@value #MAX_ANSWER_BYTES} bytes of the answer's body are read (a longer body closes the connection). Each attempt
 * ends after its target's timeout, connection included ({@code timeout}), at the latest one sweep of
 * {@link AttemptDeadlines} later.
 */
public final class PushClient implements PushSender, AutoCloseable {

    static final int MAX_ANSWER_BYTES = 64 * 1024;
    private static final int MAX_CACHED_URIS = 10_000;
    private static final String USER_AGENT = "TimeService-push/1";
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
    private final CloseableHttpAsyncClient client;
    private final AttemptDeadlines deadlines;
    private final LongSupplier wallClockMillis;
    private final ScheduledFuture<?> idleClosing;

    /**
     * @param maxConnections the most connections open at once, over all targets (each clock's concurrency bounds its
     *                       own share)
     * @param deadlines      runs the sweeps that end attempts taking longer than their timeout; its tasks must be quick
     */
    public PushClient(PushTargetPolicy policy, int ioThreads, int maxConnections, ScheduledExecutorService deadlines,
                      LongSupplier wallClockMillis) {
        this(policy, ioThreads, maxConnections, deadlines, wallClockMillis, MAX_IDLE);
    }

    /** @param maxIdle how long a kept-alive connection may wait unused before it is closed (tests shorten it) */
    PushClient(PushTargetPolicy policy, int ioThreads, int maxConnections, ScheduledExecutorService deadlines,
               LongSupplier wallClockMillis, TimeValue maxIdle) {
        this.deadlines = new AttemptDeadlines((millis, sweep) -> deadlines.schedule(sweep, millis,
                TimeUnit.MILLISECONDS), System::nanoTime);
        this.wallClockMillis = wallClockMillis;
        PoolingAsyncClientConnectionManager connections = PoolingAsyncClientConnectionManagerBuilder.create()
                .setDnsResolver(new GuardedDnsResolver(policy))
                .setMaxConnTotal(maxConnections)
                .setMaxConnPerRoute(maxConnections)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.ofMilliseconds(PushTarget.MAX_TIMEOUT_MILLIS))
                        .setSocketTimeout(Timeout.ofMilliseconds(PushTarget.MAX_TIMEOUT_MILLIS))
                        .build())
                .build();
        this.client = HttpAsyncClients.createMinimal(H2Config.DEFAULT, Http1Config.DEFAULT,
                IOReactorConfig.custom().setIoThreadCount(ioThreads).build(), connections);
        client.start();
        // a connection the target closes for idleness just as a push goes out on it fails that push (seen in the
        // benchmark against Node.js, which closes after 5 s idle): closing ours sooner leaves the target no such race
        long look = Math.max(1, maxIdle.toMilliseconds() / 2);
        this.idleClosing = deadlines.scheduleWithFixedDelay(() -> connections.closeIdle(maxIdle), look, look,
                TimeUnit.MILLISECONDS);
    }

    /**
     * POSTs {@code body} to {@code target}, signed as {@code webhookId} at the wall clock's second now. The future
     * never fails: every way an attempt can end is a {@link PushOutcome}.
     */
    @Override
    public CompletableFuture<PushOutcome> post(PushTarget target, String webhookId, byte[] body) {
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
        HttpClientContext context = HttpClientContext.create();
        context.setRequestConfig(requestConfigs.computeIfAbsent(target.timeoutMillis(), timeout ->
                RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.ofMilliseconds(timeout))
                        .setResponseTimeout(Timeout.ofMilliseconds(timeout))
                        .build()));
        CompletableFuture<PushOutcome> outcome = new CompletableFuture<>();
        Future<PushOutcome> exchange = client.execute(request.build(), new AnswerConsumer(outcome), context,
                new FutureCallback<>() {
                    @Override
                    public void completed(PushOutcome answered) {
                        outcome.complete(answered);
                    }

                    @Override
                    public void failed(Exception failure) {
                        outcome.complete(classify(failure));
                    }

                    @Override
                    public void cancelled() {
                        outcome.complete(PushOutcome.failed(PushOutcome.Kind.TIMEOUT, "no answer within "
                                + target.timeoutMillis() + " ms"));
                    }
                });
        AttemptDeadlines.Entry deadline = deadlines.track(target.timeoutMillis(), () -> {
            if (outcome.complete(PushOutcome.failed(PushOutcome.Kind.TIMEOUT, "no answer within "
                    + target.timeoutMillis() + " ms"))) {
                exchange.cancel(true);
            }
        });
        outcome.whenComplete((done, never) -> deadline.cancel());
        return outcome;
    }

    static PushOutcome classify(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof GuardedDnsResolver.TargetRefusedException refused) {
                return PushOutcome.failed(PushOutcome.Kind.REFUSED, refused.getMessage());
            }
            if (cause instanceof SocketTimeoutException || cause instanceof TimeoutException) {
                return PushOutcome.failed(PushOutcome.Kind.TIMEOUT, String.valueOf(cause.getMessage()));
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
        client.close(CloseMode.IMMEDIATE);
    }

    /** Decides by the status line and headers; reads at most {@link #MAX_ANSWER_BYTES} of the body. */
    private final class AnswerConsumer extends AbstractBinResponseConsumer<PushOutcome> {

        private final CompletableFuture<PushOutcome> early;
        private PushOutcome answered;
        private long read;

        AnswerConsumer(CompletableFuture<PushOutcome> early) {
            this.early = early;
        }

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
                early.complete(answered); // decided by its status: the rest is not read, the connection closes
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
