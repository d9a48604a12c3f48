package io.timeservice.tracing;

import static io.timeservice.tracing.OtlpReceiver.attribute;
import static io.timeservice.tracing.OtlpReceiver.linkedTraceIds;
import static io.timeservice.tracing.OtlpReceiver.parentSpanId;
import static io.timeservice.tracing.OtlpReceiver.spanId;
import static io.timeservice.tracing.OtlpReceiver.traceId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import io.opentelemetry.proto.trace.v1.Span;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.timeservice.TimeServiceApplication;
import io.timeservice.push.Receiver;
import io.timeservice.store.postgres.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One trace from the request that adds a timer to its delivery (issue 46), as an OTLP collector receives it: the
 * service exports to an in-process OTLP/HTTP receiver ({@link OtlpReceiver}), and each journey is checked span by
 * span. A virtual queueing clock (advance, claim, ack), a system queueing clock (fired by the firing thread, from an
 * add whose caller sent no context), and a system push clock (the loopback target checks the {@code traceparent} it
 * got) on both stores, and a restart of the memory store's journal between the add and the firing.
 */
class TracedJourneyTest {

    static final String CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String CALLER_SPAN = "00f067aa0ba902b7";
    static final String CALLER = "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01";
    private static final Duration EXPORTED = Duration.ofSeconds(60);

    private OtlpReceiver otlp;
    private Receiver target;
    private final List<ConfigurableApplicationContext> started = new ArrayList<>();

    @BeforeEach
    void collectors() throws IOException {
        otlp = new OtlpReceiver();
        target = new Receiver();
    }

    @AfterEach
    void stop() {
        started.forEach(ConfigurableApplicationContext::close);
        target.close();
        otlp.close();
    }

    @Test
    void theMemoryStore_keepsOneTraceFromAddToDelivery() {
        journeys(start("--timeservice.durability=none"));
    }

    @Test
    void thePostgresqlStore_keepsOneTraceFromAddToDelivery() {
        String schema = TestDatabase.schemaNameFor(TracedJourneyTest.class);
        try {
            journeys(start("--timeservice.durability=none", "--timeservice.store=postgresql",
                    "--spring.datasource.url=" + TestDatabase.withSchema(TestDatabase.URL, schema),
                    "--spring.flyway.schemas=" + schema));
        } finally {
            started.forEach(ConfigurableApplicationContext::close);
            started.clear();
            TestDatabase.dropSchema(schema);
        }
    }

    @Test
    void aRestartBetweenAddAndFiring_keepsTheTrace(@TempDir Path dataDir) {
        String[] journal = {"--timeservice.durability=journal", "--timeservice.data-dir=" + dataDir};
        ConfigurableApplicationContext first = start(journal);
        RequestSpecification api = api(first);
        api.body("{\"delivery\":\"queue\"}").put("/clocks/q").then().statusCode(201);
        add(api, "q", "kept", 5, CALLER);
        first.close();

        RequestSpecification again = api(start(journal));
        again.body("{\"by\":5}").post("/clocks/q/advance").then().statusCode(200);
        Map<String, Object> delivery = claim(again, "q", 0);
        assertThat((String) delivery.get("traceparent")).startsWith("00-" + CALLER_TRACE + "-");
        ack(again, "q", delivery);

        Span add = awaitSpan(s -> "kept".equals(attribute(s, TimerSpans.MESSAGE_ID))
                && "add".equals(attribute(s, TimerSpans.OPERATION_NAME)));
        awaitSpan(s -> s.getName().equals("fire q") && linkedTraceIds(s).contains(CALLER_TRACE));
        Span receive = awaitSpan(s -> s.getName().equals("receive q") && traceId(s).equals(CALLER_TRACE));
        assertThat(parentSpanId(receive)).isEqualTo(spanId(add));
        awaitSpan(s -> "ack".equals(attribute(s, TimerSpans.OPERATION_NAME)) && traceId(s).equals(CALLER_TRACE));
    }

    /** The three journeys on one running service. */
    private void journeys(ConfigurableApplicationContext service) {
        RequestSpecification api = api(service);
        virtualClock(api);
        batchedAcks(api);
        systemClock(api);
        pushClock(api);
    }

    /**
     * Two deliveries of two traces acknowledged in one batch (as the Java worker sends its acks): each ack is recorded
     * in its own delivery's trace, from the traceparent the worker sent with it; a malformed one is ignored.
     */
    private void batchedAcks(RequestSpecification api) {
        String otherTrace = "0af7651916cd43dd8448eb211c80319c";
        api.body("{\"delivery\":\"queue\"}").put("/clocks/qb").then().statusCode(201);
        add(api, "qb", "b1", 5, CALLER);
        add(api, "qb", "b2", 5, "00-" + otherTrace + "-b7ad6b7169203331-01");
        add(api, "qb", "b3", 5, CALLER);
        api.body("{\"by\":5}").post("/clocks/qb/advance").then().statusCode(200);
        List<Map<String, Object>> claimed = RestAssured.given().spec(api).body("{\"max\":3}")
                .post("/clocks/qb/deliveries/claim").then().statusCode(200).extract().jsonPath().getList("deliveries");
        assertThat(claimed).hasSize(3);
        StringBuilder acks = new StringBuilder();
        for (Map<String, Object> delivery : claimed) {
            String traceparent = "b3".equals(delivery.get("id")) ? "00-not-a-trace"
                    : (String) delivery.get("traceparent");
            acks.append(acks.length() == 0 ? "" : ",").append("{\"id\":\"").append(delivery.get("id"))
                    .append("\",\"claim\":\"").append(delivery.get("claim")).append("\",\"traceparent\":\"")
                    .append(traceparent).append("\"}");
        }
        RestAssured.given().spec(api).body("{\"acks\":[" + acks + "]}").post("/clocks/qb/deliveries/ack")
                .then().statusCode(200).body("acked", org.hamcrest.Matchers.equalTo(3));

        for (String[] expected : new String[][] {{"b1", CALLER_TRACE}, {"b2", otherTrace}}) {
            Span add = awaitSpan(s -> expected[0].equals(attribute(s, TimerSpans.MESSAGE_ID))
                    && "add".equals(attribute(s, TimerSpans.OPERATION_NAME)));
            Span ack = awaitSpan(s -> s.getName().equals("ack qb") && expected[0].equals(
                    attribute(s, TimerSpans.MESSAGE_ID)));
            assertThat(traceId(ack)).isEqualTo(expected[1]);
            assertThat(parentSpanId(ack)).as("a child of the delivery's context").isEqualTo(spanId(add));
            assertThat(attribute(ack, TimerSpans.OPERATION_TYPE)).isEqualTo("settle");
        }
        assertThat(otlp.find(s -> s.getName().equals("ack qb") && "b3".equals(attribute(s, TimerSpans.MESSAGE_ID))))
                .as("a malformed traceparent is ignored").isEmpty();
    }

    /** A caller's trace: add (server span, child of the caller's), fire (linked), receive and ack (in the trace). */
    private void virtualClock(RequestSpecification api) {
        api.body("{\"delivery\":\"queue\"}").put("/clocks/q").then().statusCode(201);
        add(api, "q", "t1", 5, CALLER);
        api.body("{\"by\":5}").post("/clocks/q/advance").then().statusCode(200);
        Map<String, Object> delivery = claim(api, "q", 0);
        ack(api, "q", delivery);

        Span add = awaitSpan(s -> "t1".equals(attribute(s, TimerSpans.MESSAGE_ID))
                && "add".equals(attribute(s, TimerSpans.OPERATION_NAME)));
        assertThat(traceId(add)).isEqualTo(CALLER_TRACE);
        assertThat(parentSpanId(add)).isEqualTo(CALLER_SPAN);
        assertThat(add.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
        assertThat(attribute(add, TimerSpans.DESTINATION)).isEqualTo("q");
        assertThat(delivery.get("traceparent")).isEqualTo("00-" + CALLER_TRACE + "-" + spanId(add) + "-01");
        Span fire = awaitSpan(s -> s.getName().equals("fire q"));
        assertThat(linkedTraceIds(fire)).contains(CALLER_TRACE);
        assertThat(traceId(fire)).as("linked, not a child").isNotEqualTo(CALLER_TRACE);
        assertThat(attribute(fire, TimerSpans.MESSAGING_SYSTEM)).isEqualTo("timeservice");
        Span receive = awaitSpan(s -> s.getName().equals("receive q"));
        assertThat(traceId(receive)).isEqualTo(CALLER_TRACE);
        assertThat(parentSpanId(receive)).isEqualTo(spanId(add));
        assertThat(attribute(receive, TimerSpans.MESSAGE_ID)).isEqualTo("t1");
        Span ack = awaitSpan(s -> "ack".equals(attribute(s, TimerSpans.OPERATION_NAME)) && "t1".equals(
                attribute(s, TimerSpans.MESSAGE_ID)));
        assertThat(traceId(ack)).isEqualTo(CALLER_TRACE);
    }

    /** No context from the caller: the trace starts at the add's server span; the firing thread fires. */
    private void systemClock(RequestSpecification api) {
        api.body("{\"mode\":\"system\",\"delivery\":\"queue\"}").put("/clocks/sys").then().statusCode(201);
        add(api, "sys", "s1", 0, null);
        Map<String, Object> delivery = claim(api, "sys", 5_000);
        ack(api, "sys", delivery);

        Span add = awaitSpan(s -> "s1".equals(attribute(s, TimerSpans.MESSAGE_ID))
                && "add".equals(attribute(s, TimerSpans.OPERATION_NAME)));
        assertThat(parentSpanId(add)).as("a root span").isEmpty();
        assertThat(delivery.get("traceparent")).isEqualTo("00-" + traceId(add) + "-" + spanId(add) + "-01");
        awaitSpan(s -> s.getName().equals("fire sys") && linkedTraceIds(s).contains(traceId(add)));
        awaitSpan(s -> s.getName().equals("receive sys") && traceId(s).equals(traceId(add)));
        awaitSpan(s -> "ack".equals(attribute(s, TimerSpans.OPERATION_NAME)) && traceId(s).equals(traceId(add)));
    }

    /** A push: the target gets a traceparent naming the attempt's client span, in the caller's trace. */
    private void pushClock(RequestSpecification api) {
        target.answer(request -> Receiver.Answer.status(204));
        api.body("{\"mode\":\"system\",\"delivery\":\"push\",\"push\":{\"url\":\"" + target.url("/hook") + "\"}}")
                .put("/clocks/p").then().statusCode(201);
        add(api, "p", "pushed", 0, CALLER);
        Receiver.Request request;
        try {
            request = target.nextWithin(EXPORTED.toMillis());
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        assertThat(request).as("the push arrived").isNotNull();
        String traceparent = request.header("traceparent");
        assertThat(traceparent).startsWith("00-" + CALLER_TRACE + "-");

        Span attempt = awaitSpan(s -> s.getName().equals("POST") && s.getKind() == Span.SpanKind.SPAN_KIND_CLIENT
                && traceId(s).equals(CALLER_TRACE));
        assertThat(traceparent).isEqualTo("00-" + CALLER_TRACE + "-" + spanId(attempt) + "-01");
        assertThat(attribute(attempt, "http.request.method")).isEqualTo("POST");
        assertThat(attribute(attempt, "url.full")).isEqualTo(target.url("/hook"));
        assertThat(attribute(attempt, "http.response.status_code")).isEqualTo("204");
        assertThat(attribute(attempt, TimerSpans.MESSAGE_ID)).isEqualTo("pushed");
        awaitSpan(s -> s.getName().equals("fire p") && linkedTraceIds(s).contains(CALLER_TRACE));
    }

    private ConfigurableApplicationContext start(String... settings) {
        List<String> args = new ArrayList<>(List.of("--server.port=0",
                "--management.opentelemetry.tracing.export.otlp.endpoint=" + otlp.endpoint(),
                "--management.tracing.sampling.probability=1.0",
                "--management.opentelemetry.tracing.export.schedule-delay=100ms",
                "--timeservice.push.allow-private-targets=true"));
        args.addAll(List.of(settings));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(TimeServiceApplication.class)
                .run(args.toArray(String[]::new));
        started.add(context);
        return context;
    }

    private static RequestSpecification api(ConfigurableApplicationContext service) {
        int port = Integer.parseInt(service.getEnvironment().getProperty("local.server.port"));
        return RestAssured.given().port(port).contentType(ContentType.JSON);
    }

    private static void add(RequestSpecification api, String clock, String id, long delay, String traceparent) {
        RequestSpecification request = RestAssured.given().spec(api).body("{\"id\":\"" + id + "\",\"delay\":"
                + delay + "}");
        if (traceparent != null) {
            request.header("traceparent", traceparent);
        }
        request.post("/clocks/" + clock + "/timers").then().statusCode(201);
    }

    /** The first delivery a claim (long-polling {@code waitMillis}) answers, retried until there is one. */
    private static Map<String, Object> claim(RequestSpecification api, String clock, long waitMillis) {
        return await("a delivery of " + clock).atMost(EXPORTED).until(() -> {
            Response claimed = RestAssured.given().spec(api).body("{\"max\":1,\"wait\":" + waitMillis + "}")
                    .post("/clocks/" + clock + "/deliveries/claim");
            claimed.then().statusCode(200);
            List<Map<String, Object>> deliveries = claimed.jsonPath().getList("deliveries");
            return deliveries.isEmpty() ? null : deliveries.get(0);
        }, delivery -> delivery != null);
    }

    /** Acks as a worker that continues the delivery's trace does: with its traceparent. */
    private static void ack(RequestSpecification api, String clock, Map<String, Object> delivery) {
        RestAssured.given().spec(api).header("traceparent", delivery.get("traceparent"))
                .body("{\"claim\":\"" + delivery.get("claim") + "\"}")
                .post("/clocks/" + clock + "/deliveries/" + delivery.get("id") + "/ack").then().statusCode(204);
    }

    private Span awaitSpan(Predicate<Span> matching) {
        return await("an exported span").atMost(EXPORTED).until(() -> otlp.find(matching), Optional::isPresent)
                .orElseThrow();
    }
}
