package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import io.timeservice.model.PushTarget;
import io.timeservice.model.PushTargetPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The push client against targets that attack it ({@link HostileTarget}, on 127.0.0.1): an answer's head that never
 * ends, a head or {@code 102 Processing} trickled byte by byte, a target whose I/O thread dies under it. Each attempt
 * must end by its deadline, its connection must be closed (the target sees it: a target that has to close a connection
 * itself at its bounds found a client that never did), and the client must still push to a healthy target afterwards.
 * Every wait is for an event, bounded generously.
 */
class PushClientHostileTargetTest {

    /** A hostile connection ends itself after this many bytes or milliseconds: far above what a client may take. */
    private static final long CAP_BYTES = 64L << 20;
    private static final long CAP_MILLIS = 15_000;
    /** Loopback socket buffers hold a few MiB, whatever the client reads: what a closing client may still be sent. */
    private static final long SENT_BOUND = 16L << 20;
    private static final byte[] BODY = "{}".getBytes(StandardCharsets.UTF_8);

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final PushTargetPolicy loopbackAllowed = new PushTargetPolicy(true, List.of(), InetAddress::getAllByName);

    @AfterEach
    void stop() {
        timers.shutdownNow();
    }

    private PushClient client(int maxConnections, LongSupplier wallClock) {
        return new PushClient(loopbackAllowed, 1, maxConnections, timers, wallClock);
    }

    private static PushOutcome post(PushClient client, String url, long timeoutMillis, String id) throws Exception {
        return client.post(new PushTarget(url, timeoutMillis, 1, Map.of(), List.of()), id, BODY)
                .get(60, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @EnumSource(value = HostileTarget.Mode.class, names = {"ENDLESS_HEADER_LINE", "ENDLESS_HEADER_LINES"})
    void anAnswerHeadWithoutEnd_endsAsAProtocolError_closesItsConnection_andLaterPushesSucceed(
            HostileTarget.Mode mode) throws Exception {
        try (HostileTarget hostile = new HostileTarget(mode, 0, CAP_BYTES, CAP_MILLIS);
             Receiver healthy = new Receiver();
             PushClient client = client(10, System::currentTimeMillis)) {
            PushOutcome outcome = post(client, hostile.url(), 5_000, "hostile:1");

            assertThat(outcome.kind()).isEqualTo(PushOutcome.Kind.PROTOCOL_ERROR);
            assertThat(hostile.awaitClosedByClient(1, 30)).isTrue();
            assertThat(hostile.closedByTarget()).isZero();
            assertThat(hostile.mostSent()).isLessThan(SENT_BOUND);
            assertThat(post(client, healthy.url("/"), 5_000, "healthy:1").kind())
                    .isEqualTo(PushOutcome.Kind.SUCCESS);
        }
    }

    @ParameterizedTest
    @EnumSource(value = HostileTarget.Mode.class, names = {"TRICKLE_102", "TRICKLE_HEADER"})
    void aTrickledAnswer_endsAsTimeout_andItsConnectionIsClosedAtTheTimeout(HostileTarget.Mode mode)
            throws Exception {
        try (HostileTarget hostile = new HostileTarget(mode, 20, CAP_BYTES, CAP_MILLIS);
             PushClient client = client(10, System::currentTimeMillis)) {
            PushOutcome outcome = post(client, hostile.url(), 300, "hostile:1");

            assertThat(outcome.kind()).isEqualTo(PushOutcome.Kind.TIMEOUT);
            assertThat(hostile.awaitClosedByClient(1, 30)).isTrue();
            assertThat(hostile.closedByTarget()).isZero();
        }
    }

    @Test
    void connectionsOfTimedOutAttempts_areClosed_soAnotherTargetStillGetsAConnection() throws Exception {
        try (HostileTarget hostile = new HostileTarget(HostileTarget.Mode.TRICKLE_HEADER, 20, CAP_BYTES, CAP_MILLIS);
             Receiver healthy = new Receiver();
             PushClient client = client(4, System::currentTimeMillis)) {
            List<CompletableFuture<PushOutcome>> attempts = new ArrayList<>();
            for (int i = 0; i < 4; i++) { // every connection the client may open
                attempts.add(client.post(new PushTarget(hostile.url(), 300, 4, Map.of(), List.of()), "hostile:" + i,
                        BODY));
            }
            for (CompletableFuture<PushOutcome> attempt : attempts) {
                assertThat(attempt.get(60, TimeUnit.SECONDS).kind()).isEqualTo(PushOutcome.Kind.TIMEOUT);
            }

            assertThat(post(client, healthy.url("/"), 5_000, "healthy:1").kind())
                    .isEqualTo(PushOutcome.Kind.SUCCESS);
            assertThat(hostile.awaitClosedByClient(4, 30)).isTrue();
            assertThat(hostile.closedByTarget()).isZero();
        }
    }

    @Test
    void anIoThreadThatDies_isNoticed_theClientRestarted_andLaterPushesSucceed() throws Exception {
        // the incident's OutOfMemoryError on the client's I/O thread, thrown where the client's code runs on it: the
        // wall clock is read there for a 503's Retry-After
        AtomicBoolean armed = new AtomicBoolean(true);
        LongSupplier wallClock = () -> {
            if (Thread.currentThread().getName().startsWith("httpclient-dispatch") && armed.getAndSet(false)) {
                throw new OutOfMemoryError("simulated: the I/O thread dies");
            }
            return System.currentTimeMillis();
        };
        java.util.concurrent.atomic.AtomicInteger restartsCounted = new java.util.concurrent.atomic.AtomicInteger();
        PushMetrics metrics = new PushMetrics() {
            @Override
            public void attempt(PushOutcome.Kind outcome, long nanos) {
            }

            @Override
            public void clientRestarted() {
                restartsCounted.incrementAndGet();
            }
        };
        try (Receiver receiver = new Receiver();
             PushClient client = new PushClient(loopbackAllowed, 1, 10, timers, wallClock, metrics)) {
            receiver.answer(request -> request.header("webhook-id").equals("dies:1")
                    ? new Receiver.Answer(503, Map.of("Retry-After", "1"), () -> { })
                    : Receiver.Answer.status(204));

            PushOutcome dying = post(client, receiver.url("/"), 1_000, "dies:1");
            assertThat(armed).isFalse();
            assertThat(dying.kind()).isEqualTo(PushOutcome.Kind.TIMEOUT);

            assertThat(post(client, receiver.url("/"), 5_000, "later:1").kind()).isEqualTo(PushOutcome.Kind.SUCCESS);
            assertThat(post(client, receiver.url("/"), 5_000, "later:2").kind()).isEqualTo(PushOutcome.Kind.SUCCESS);
            assertThat(client.restarts()).isEqualTo(1);
            assertThat(restartsCounted).hasValue(1);
            assertThat(client.lastRestart()).isNotNull();
            assertThat(client.reactorStatus()).isEqualTo("ACTIVE");
        }
    }
}
