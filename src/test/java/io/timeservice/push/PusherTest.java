package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.ClockStore;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.MemoryDeliveryStore;
import io.timeservice.store.memory.MemoryScheduleStore;
import io.timeservice.store.memory.MemoryTimerStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pusher against a real HTTP receiver on 127.0.0.1, over the memory store's virtual clocks: what a push carries
 * and how it is signed, and how each answer settles the delivery (retries at the clock's time, so each test advances
 * past a backoff to see the next attempt). Every wait is for an event (a request arriving, a settlement), bounded.
 */
class PusherTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String OLD_SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
    /** Three attempts, 1 s then 2 s of backoff, at most 5 s, no jitter: every retry time is known. */
    private static final RetryPolicy RETRY = new RetryPolicy(3, 1_000, 2.0, 5_000, 0);

    private final ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, 10_000, 1 << 24, 100);
    private final MemoryTimerStore timers = new MemoryTimerStore(clocks);
    private final SettleRecorder deliveries = new SettleRecorder(new MemoryDeliveryStore(clocks));
    private final ConcurrentLinkedQueue<PushOutcome.Kind> outcomes = new ConcurrentLinkedQueue<>();
    private ScheduledExecutorService timeouts;
    private Receiver receiver;
    private PushClient client;
    private Pusher pusher;

    @BeforeEach
    void start() throws Exception {
        receiver = new Receiver();
        timeouts = Executors.newSingleThreadScheduledExecutor();
        startPusher(new PushTargetPolicy(true, List.of(), InetAddress::getAllByName));
    }

    private void startPusher(PushTargetPolicy policy) {
        startPusher(policy, null);
    }

    private void startPusher(PushTargetPolicy policy, String instance) {
        client = new PushClient(policy, 1, 100, timeouts, System::currentTimeMillis);
        pusher = new Pusher(new MemoryClockStore(clocks), deliveries, client, (kind, nanos) -> outcomes.add(kind), 2,
                timeouts, Duration.ofSeconds(1), settleOnAnswer(), instance);
        pusher.start();
    }

    /** Whether the pusher settles on the answering thread (the memory store without a journal) or on its pool. */
    boolean settleOnAnswer() {
        return false;
    }

    @AfterEach
    void stop() {
        pusher.close();
        client.close();
        receiver.close();
        timeouts.shutdownNow();
    }

    private void pushClock(String name, PushTarget target) {
        new MemoryClockStore(clocks).create(name, 0, new ClockSettings(ClockSettings.Mode.VIRTUAL,
                ClockSettings.DeliveryMode.PUSH, RETRY, null, target));
    }

    private PushTarget target(String path, int concurrency, List<String> secrets) {
        return new PushTarget(receiver.url(path), 2_000, concurrency, Map.of("X-Tenant", "acme"), secrets);
    }

    private Timer add(String clock, String id, long delay, String payload) {
        return timers.add(clock, id, delay, 0, payload, Trace.NONE);
    }

    private AdvanceResult advance(String clock, long by) {
        return timers.advance(clock, by, null, 10_000, Trace.NONE);
    }

    @Test
    void push_postsTheDeliverySignedForEverySecret_andA2xxAcknowledgesIt() throws Exception {
        pushClock("billing", target("/hooks", 4, List.of(SECRET, OLD_SECRET)));
        Timer timer = add("billing", "invoice-42", 1_000, "{\"invoice\":42}");
        long before = System.currentTimeMillis() / 1000;

        advance("billing", 1_000);

        Receiver.Request push = receiver.next();
        assertThat(push.path()).isEqualTo("/hooks");
        assertThat(push.header("Content-Type")).startsWith("application/json");
        assertThat(push.header("X-Tenant")).isEqualTo("acme");
        // the minimal client would add Apache's own if the pusher did not set it
        assertThat(push.header("User-Agent")).isEqualTo("TimeService-push/1");
        assertThat(push.body()).isEqualTo("{\"clock\":\"billing\",\"id\":\"invoice-42\",\"fireTime\":1000,"
                + "\"priority\":0,\"sequence\":" + timer.sequence() + ",\"attempt\":1,\"payload\":{\"invoice\":42}}");
        String id = push.header("webhook-id");
        String timestamp = push.header("webhook-timestamp");
        assertThat(id).isEqualTo("billing:" + timer.sequence());
        assertThat(Long.parseLong(timestamp)).isBetween(before, System.currentTimeMillis() / 1000);
        String signature = push.header("webhook-signature");
        assertThat(signature.split(" ")).hasSize(2);
        assertThat(StandardWebhooks.verify(SECRET, id, timestamp, push.body(), signature)).isTrue();
        assertThat(StandardWebhooks.verify(OLD_SECRET, id, timestamp, push.body(), signature)).isTrue();
        assertThat(StandardWebhooks.verify("whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[24]), id,
                timestamp, push.body(), signature)).isFalse();
        assertThat(StandardWebhooks.verify(SECRET, id, timestamp, push.body().replace("42", "43"), signature))
                .isFalse();

        assertThat(deliveries.next().call()).isEqualTo("ack");
        assertThat(deliveries.counts("billing")).isEqualTo(new io.timeservice.model.DeliveryCounts(0, 0, 0, 0, null,
                false));
        assertThat(outcomes).containsExactly(PushOutcome.Kind.SUCCESS);
    }

    @Test
    void flowControl_holdsAKeysPushesToItsConcurrency_whileOtherKeysGo() throws Exception {
        new MemoryClockStore(clocks).create("flow", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL,
                ClockSettings.DeliveryMode.PUSH, RETRY, null, target("/hooks", 4, List.of()))
                .withFlow(new io.timeservice.model.FlowLimits(1, null, null, null, null)));
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        receiver.answer(request -> Receiver.Answer.heldUntil(release));
        for (int i = 0; i < 3; i++) {
            timers.add("flow", "k" + i, io.timeservice.model.Due.after(10), 0, null, null, "k", Trace.NONE);
        }
        timers.add("flow", "j0", io.timeservice.model.Due.after(10), 0, null, null, "j", Trace.NONE);

        advance("flow", 10);

        List<String> first = List.of(receiver.next().body(), receiver.next().body());
        assertThat(first).anySatisfy(body -> assertThat(body).contains("\"id\":\"k0\"", "\"key\":\"k\""))
                .anySatisfy(body -> assertThat(body).contains("\"id\":\"j0\"", "\"key\":\"j\""));
        assertThat(receiver.nextWithin(300)).as("k1 is held back while k0 is in flight").isNull();
        release.countDown();
        assertThat(receiver.next().body()).contains("\"id\":\"k1\"");
        assertThat(receiver.next().body()).contains("\"id\":\"k2\"");
        assertThat(receiver.mostOpen()).isLessThanOrEqualTo(2);
    }

    @Test
    void anAnswer_isSettledOnThePushersPool_orWhereItArrives() throws Exception {
        pushClock("billing", target("/hooks", 4, List.of()));
        add("billing", "invoice-42", 1_000, null);

        advance("billing", 1_000);

        assertThat(receiver.next().path()).isEqualTo("/hooks");
        assertThat(deliveries.next().call()).isEqualTo("ack");
        assertThat(deliveries.ackingThreads).hasSize(1).allSatisfy(thread -> assertThat(thread)
                .as("the pool's threads are named timeservice-push-*; the client's I/O threads are Apache's")
                .matches(settleOnAnswer() ? "(?!timeservice-push-).*" : "timeservice-push-\\d+"));
    }

    @Test
    void push_withoutSecrets_sendsNoSignature() throws Exception {
        pushClock("plain", target("/", 1, List.of()));
        add("plain", "a", 0, null);
        advance("plain", 0);

        Receiver.Request push = receiver.next();
        assertThat(push.header("webhook-signature")).isNull();
        assertThat(push.body()).endsWith("\"attempt\":1,\"payload\":null}");
    }

    @Test
    void a429WithRetryAfter_retriesNoSoonerThanItSays_atTheClocksTime() throws Exception {
        pushClock("limited", target("/", 1, List.of(SECRET)));
        receiver.answer(request -> request.body().contains("\"attempt\":1")
                ? new Receiver.Answer(429, Map.of("Retry-After", "3"), () -> { })
                : Receiver.Answer.status(200));
        Timer timer = add("limited", "a", 0, null);
        advance("limited", 0);

        Receiver.Request first = receiver.next();
        SettleRecorder.Settled nacked = deliveries.next();
        assertThat(nacked.call()).isEqualTo("nack");
        assertThat(nacked.after().state()).isEqualTo(Delivery.State.WAITING);
        assertThat(nacked.after().retryAt()).isEqualTo(3_000); // Retry-After, not the 1 s backoff

        advance("limited", 2_999);
        assertThat(deliveries.counts("limited").waiting()).isEqualTo(1);
        advance("limited", 1);

        Receiver.Request second = receiver.next();
        assertThat(second.header("webhook-id")).isEqualTo(first.header("webhook-id"))
                .isEqualTo("limited:" + timer.sequence());
        assertThat(second.body()).contains("\"attempt\":2");
        assertThat(deliveries.next().call()).isEqualTo("ack");
        assertThat(outcomes).containsExactly(PushOutcome.Kind.HTTP_4XX, PushOutcome.Kind.SUCCESS);
    }

    @Test
    void a503WithALongerRetryAfter_waitsTheClocksMaxBackoff() throws Exception {
        pushClock("busy", target("/", 1, List.of()));
        receiver.answer(request -> new Receiver.Answer(503, Map.of("Retry-After", "3600"), () -> { }));
        add("busy", "a", 0, null);
        advance("busy", 0);

        receiver.next();
        assertThat(deliveries.next().after().retryAt()).isEqualTo(RETRY.maxBackoffMillis());
    }

    @Test
    void a410_sendsTheDeliveryToTheDeadLettersAtOnce_andARedrivePushesItAgain() throws Exception {
        pushClock("gone", target("/", 1, List.of()));
        receiver.answer(request -> Receiver.Answer.status(request.body().contains("\"attempt\":1") ? 410 : 204));
        add("gone", "a", 0, null);
        advance("gone", 0);

        receiver.next();
        SettleRecorder.Settled rejected = deliveries.next();
        assertThat(rejected.call()).isEqualTo("reject");
        assertThat(rejected.after().state()).isEqualTo(Delivery.State.DEAD);
        assertThat(rejected.after().deadReason()).isEqualTo("the target answered 410 Gone on attempt 1");
        assertThat(deliveries.dead("gone", 10, 0)).hasSize(1);

        receiver.answer(request -> Receiver.Answer.status(204));
        deliveries.redrive("gone", "a", null);

        assertThat(receiver.next().body()).contains("\"attempt\":1");
        assertThat(deliveries.next().call()).isEqualTo("ack");
        assertThat(deliveries.counts("gone").dead()).isZero();
    }

    @Test
    void aRedirect_isNotFollowed_andRetries() throws Exception {
        pushClock("moved", target("/", 1, List.of()));
        receiver.answer(request -> request.path().equals("/elsewhere") ? Receiver.Answer.status(204)
                : new Receiver.Answer(307, Map.of("Location", receiver.url("/elsewhere")), () -> { }));
        add("moved", "a", 0, null);
        advance("moved", 0);

        assertThat(receiver.next().path()).isEqualTo("/");
        SettleRecorder.Settled nacked = deliveries.next();
        assertThat(nacked.call()).isEqualTo("nack");
        assertThat(outcomes).containsExactly(PushOutcome.Kind.HTTP_4XX);
        assertThat(receiver.nextWithin(0)).as("the redirect's target got nothing").isNull();
    }

    @Test
    void anAnswerOver64KiB_isDecidedByItsStatus() throws Exception {
        pushClock("chatty", target("/", 1, List.of()));
        receiver.answer(request -> new Receiver.Answer(200, Map.of(), () -> { }, 1 << 20));
        add("chatty", "a", 0, null);
        advance("chatty", 0);

        receiver.next();
        assertThat(deliveries.next().call()).isEqualTo("ack");
        assertThat(outcomes).containsExactly(PushOutcome.Kind.SUCCESS);
    }

    @Test
    void failingAnswers_retryByThePolicy_untilTheDeliveryIsDead() throws Exception {
        pushClock("broken", target("/", 1, List.of()));
        receiver.answer(request -> Receiver.Answer.status(500));
        add("broken", "a", 0, null);
        advance("broken", 0);

        receiver.next();
        assertThat(deliveries.next().after().retryAt()).isEqualTo(1_000);
        advance("broken", 1_000);
        assertThat(receiver.next().body()).contains("\"attempt\":2");
        assertThat(deliveries.next().after().retryAt()).isEqualTo(3_000);
        advance("broken", 2_000);
        assertThat(receiver.next().body()).contains("\"attempt\":3");
        SettleRecorder.Settled last = deliveries.next();
        assertThat(last.after().state()).isEqualTo(Delivery.State.DEAD);
        assertThat(last.after().deadReason()).isEqualTo("nacked on attempt 3 of 3");
        assertThat(outcomes).containsExactly(PushOutcome.Kind.HTTP_5XX, PushOutcome.Kind.HTTP_5XX,
                PushOutcome.Kind.HTTP_5XX);
    }

    @Test
    void aTargetSlowerThanItsTimeout_endsAsTimeout_andRetries() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        pushClock("slow", new PushTarget(receiver.url("/"), 200, 1, Map.of(), List.of()));
        receiver.answer(request -> new Receiver.Answer(204, Map.of(), () -> await(release)));
        try {
            add("slow", "a", 0, null);
            advance("slow", 0);

            receiver.next();
            SettleRecorder.Settled nacked = deliveries.next();
            assertThat(nacked.call()).isEqualTo("nack");
            assertThat(nacked.after().state()).isEqualTo(Delivery.State.WAITING);
            assertThat(outcomes).containsExactly(PushOutcome.Kind.TIMEOUT);
        } finally {
            release.countDown();
        }
    }

    @Test
    void noMoreThanTheClocksConcurrency_isInFlight_andAllArrive() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        pushClock("bounded", target("/", 3, List.of()));
        receiver.answer(request -> new Receiver.Answer(204, Map.of(), () -> await(release)));
        for (int i = 0; i < 10; i++) {
            add("bounded", "t" + i, 0, null);
        }
        advance("bounded", 0);

        for (int i = 0; i < 3; i++) {
            receiver.next();
        }
        assertThat(deliveries.counts("bounded").inFlight()).isEqualTo(3);
        assertThat(deliveries.counts("bounded").ready()).isEqualTo(7);
        release.countDown();
        for (int i = 0; i < 7; i++) {
            receiver.next();
        }
        for (int i = 0; i < 10; i++) {
            assertThat(deliveries.next().call()).isEqualTo("ack");
        }
        assertThat(receiver.mostOpen()).isEqualTo(3);
    }

    @Test
    void aSilentTargetWithShortTimeouts_neverHoldsMoreThanTheClocksConcurrency() throws Exception {
        try (HostileTarget silent = new HostileTarget(HostileTarget.Mode.SILENT, 0, 1 << 20, 15_000)) {
            pushClock("silent", new PushTarget(silent.url(), 100, 3, Map.of(), List.of()));
            for (int i = 0; i < 30; i++) {
                add("silent", "t" + i, 0, null);
            }
            advance("silent", 0);

            for (int i = 0; i < 30; i++) {
                assertThat(deliveries.next().call()).isEqualTo("nack");
            }
            // a slot is freed only once its connection is closed: the target never sees a fourth request open (the
            // fix's absence showed 27)
            assertThat(silent.mostOpen()).isLessThanOrEqualTo(3);
            assertThat(outcomes).hasSize(30).containsOnly(PushOutcome.Kind.TIMEOUT);
        }
    }

    @Test
    void firstAttempts_leaveInFiringOrder() throws Exception {
        pushClock("ordered", target("/", 1, List.of()));
        java.util.Random random = new java.util.Random(32);
        for (int i = 0; i < 20; i++) {
            timers.add("ordered", "t" + i, random.nextInt(5), random.nextInt(3), null, Trace.NONE);
        }
        List<String> fired = advance("ordered", 10).fired().stream().map(Timer::id).toList();

        List<String> pushed = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String body = receiver.next().body();
            pushed.add(body.substring(body.indexOf("\"id\":\"") + 6, body.indexOf("\",\"fireTime\"")));
        }
        assertThat(pushed).isEqualTo(fired);
    }

    @Test
    void aSchedulesOccurrence_arrivesNamingItsSchedule_andAClientsTimerNamesNone() throws Exception {
        pushClock("reports", target("/", 1, List.of()));
        new MemoryScheduleStore(clocks).put("reports", "nightly", new ScheduleSpec(null, 1_000L, null, 1_000L, null,
                null, 0, "{\"report\":1}", null, false), null);

        advance("reports", 1_000);

        Receiver.Request occurrence = receiver.next();
        assertThat(occurrence.body()).startsWith("{\"clock\":\"reports\",\"id\":\"nightly:1000\",\"fireTime\":1000,")
                .endsWith(",\"payload\":{\"report\":1},\"schedule\":\"nightly\"}");
        deliveries.next();

        add("reports", "adhoc", 0, null);
        advance("reports", 0);
        Receiver.Request timer = receiver.next();
        assertThat(timer.body()).contains("\"id\":\"adhoc\"").doesNotContain("\"schedule\"");
    }

    @Test
    void aForkedPushClock_pushesItsCopiesUnderItsOwnName() throws Exception {
        pushClock("source", target("/", 1, List.of()));
        receiver.answer(request -> Receiver.Answer.status(500));
        add("source", "a", 0, null);
        advance("source", 0);
        receiver.next();
        deliveries.next();

        receiver.answer(request -> Receiver.Answer.status(204));
        new MemoryClockStore(clocks).copy("copy", "source");
        advance("copy", 1_000);
        Receiver.Request pushed = receiver.next();
        assertThat(pushed.header("webhook-id")).startsWith("copy:");
        assertThat(pushed.body()).startsWith("{\"clock\":\"copy\"");
    }

    /**
     * A target its clock was created with, whose host now resolves to loopback (DNS rebinding), or that is a
     * loopback literal, under a policy without private targets: each connection is refused before a byte is sent,
     * as {@code refused}, and retried.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"rebind.test", "127.0.0.1", "localhost"})
    void aTargetResolvingToLoopbackAtConnectionTime_isRefused_andRetried(String host) throws Exception {
        pusher.close();
        client.close();
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        startPusher(new PushTargetPolicy(false, List.of(), name -> name.equals("rebind.test")
                ? new InetAddress[] {loopback} : InetAddress.getAllByName(name)));
        pushClock("rebound", new PushTarget("http://" + host + ":" + receiver.port() + "/", 2_000, 1, Map.of(),
                List.of()));
        add("rebound", "a", 0, null);
        advance("rebound", 0);

        SettleRecorder.Settled nacked = deliveries.next();
        assertThat(nacked.call()).isEqualTo("nack");
        assertThat(nacked.after().state()).isEqualTo(Delivery.State.WAITING);
        assertThat(outcomes).containsExactly(PushOutcome.Kind.REFUSED);
        advance("rebound", 1_000);
        assertThat(deliveries.next().after().attempt()).isEqualTo(3);
        assertThat(outcomes).containsExactly(PushOutcome.Kind.REFUSED, PushOutcome.Kind.REFUSED);
        assertThat(receiver.nextWithin(0)).as("nothing reached the receiver").isNull();
    }

    /** Issue 41 item 11: a target's own User-Agent is sent instead of the pusher's, as one field. */
    @Test
    void aTargetsUserAgent_replacesThePushers() throws Exception {
        pushClock("agent", new PushTarget(receiver.url("/"), 2_000, 1, Map.of("user-agent", "acme-bot/2"), List.of()));
        add("agent", "a", 0, null);
        advance("agent", 0);

        Receiver.Request push = receiver.next();
        List<String> agents = push.headers().entrySet().stream()
                .filter(header -> header.getKey().equalsIgnoreCase("User-Agent"))
                .flatMap(header -> header.getValue().stream()).toList();
        assertThat(agents).containsExactly("acme-bot/2");
    }

    /** A push clock to /old, signed with the old secret, that pushed one delivery (its settings just read), deleted. */
    private void pushedOnceThenDeleted(String name) throws InterruptedException {
        pushClock(name, target("/old", 4, List.of(OLD_SECRET)));
        add(name, "a", 0, null);
        advance(name, 0);
        assertThat(receiver.next().path()).isEqualTo("/old");
        assertThat(deliveries.next().call()).isEqualTo("ack");
        new MemoryClockStore(clocks).delete(name);
    }

    /**
     * Issue 41 item 10: a push clock deleted and created again under its name with another target and secret pushes
     * the new clock's deliveries to the new target, signed with the new secret, though the pusher read the old
     * settings a moment before (within the time it trusts them).
     */
    @Test
    void aClockMadeAgainUnderItsName_pushesToItsOwnTarget_signedWithItsOwnSecret() throws Exception {
        pushedOnceThenDeleted("recycled");
        pushClock("recycled", target("/new", 4, List.of(SECRET)));
        add("recycled", "b", 0, null);
        advance("recycled", 0);

        Receiver.Request push = receiver.next();
        assertThat(push.path()).isEqualTo("/new");
        assertThat(push.body()).contains("\"id\":\"b\"");
        String id = push.header("webhook-id");
        String timestamp = push.header("webhook-timestamp");
        String signature = push.header("webhook-signature");
        assertThat(StandardWebhooks.verify(SECRET, id, timestamp, push.body(), signature)).isTrue();
        assertThat(StandardWebhooks.verify(OLD_SECRET, id, timestamp, push.body(), signature)).isFalse();
        assertThat(deliveries.next().call()).isEqualTo("ack");
        assertThat(receiver.nextWithin(0)).isNull();
    }

    /**
     * Issue 41 item 10: a push clock made again as a queue clock keeps its deliveries for its workers: the pusher's
     * claim names the clock it read, which is gone, and reading again it finds a clock that does not push.
     */
    @Test
    void aPushClockMadeAgainAsAQueueClock_keepsItsDeliveriesForItsWorkers() throws Exception {
        pushedOnceThenDeleted("recycled");
        new MemoryClockStore(clocks).create("recycled", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL,
                ClockSettings.DeliveryMode.QUEUE, RETRY, null, null));
        add("recycled", "b", 0, null);
        advance("recycled", 0);

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> deliveries.refusedClaims.contains("recycled: clock_not_found"));
        List<Delivery> claimed = deliveries.claim("recycled", 10, 30_000, 0);
        assertThat(claimed).extracting(Delivery::id).containsExactly("b");
        assertThat(receiver.nextWithin(0)).as("the old target got nothing more").isNull();
    }

    /**
     * A queue clock deleted and made again as a push clock under its name, while the pusher still trusts the settings
     * it read of the queue clock, pushes its delivery at once: the signal skipped then is looked at again after the
     * settings' TTL, not at the next full sweep 30 s later (a loaded CI run of PushRestTest waited 20 s in vain).
     */
    @Test
    void aQueueClockMadeAgainAsAPushClock_pushesWithoutWaitingForAFullSweep() throws Exception {
        pusher.close();
        AtomicInteger reads = new AtomicInteger();
        MemoryClockStore store = new MemoryClockStore(clocks);
        ClockStore counting = (ClockStore) Proxy.newProxyInstance(ClockStore.class.getClassLoader(),
                new Class<?>[] {ClockStore.class}, (proxy, method, args) -> {
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException thrown) {
                        throw thrown.getCause();
                    } finally {
                        if (method.getName().equals("get") && "recycled".equals(args[0])) {
                            reads.incrementAndGet();
                        }
                    }
                });
        pusher = new Pusher(counting, deliveries, client, (kind, nanos) -> outcomes.add(kind), 2, timeouts,
                Duration.ofSeconds(1), settleOnAnswer(), null);
        pusher.start();
        store.create("recycled", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                RETRY, null, null));
        add("recycled", "a", 0, null);
        advance("recycled", 0);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> reads.get() > 0);

        store.delete("recycled");
        pushClock("recycled", target("/new", 4, List.of(SECRET)));
        add("recycled", "b", 0, null);
        advance("recycled", 0);

        Receiver.Request push = receiver.next(); // within 20 s; the next full sweep is 30 s after the start
        assertThat(push.path()).isEqualTo("/new");
        assertThat(push.body()).contains("\"id\":\"b\"");
    }

    /**
     * Issue 41 item 11: over a store that forgets its sequences at a restart, each start's pusher tags its
     * webhook-ids with its instance, so the same clock, timer and sequence after a restart is another id.
     */
    @Test
    void webhookIds_carryTheInstanceOfTheStart_whereSequencesDoNotOutliveARestart() throws Exception {
        pusher.close();
        client.close();
        String first = Pusher.newInstance();
        String second = Pusher.newInstance();
        assertThat(first).matches("[0-9a-z]{1,13}").isNotEqualTo(second);
        startPusher(new PushTargetPolicy(true, List.of(), InetAddress::getAllByName), first);
        pushClock("tagged", target("/", 1, List.of(SECRET)));
        Timer timer = add("tagged", "a", 0, null);
        advance("tagged", 0);

        Receiver.Request push = receiver.next();
        assertThat(push.header("webhook-id")).isEqualTo("tagged:" + timer.sequence() + ":" + first);
        assertThat(StandardWebhooks.verify(SECRET, push.header("webhook-id"), push.header("webhook-timestamp"),
                push.body(), push.header("webhook-signature"))).isTrue();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
