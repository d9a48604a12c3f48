package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.store.IdempotencyStore;
import io.timeservice.store.memory.AnswerLog;
import io.timeservice.store.memory.MemoryIdempotencyStore;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The {@code Idempotency-Key} filter on its own, in front of a test double of the application that counts its runs
 * (and, for the concurrent repeat, blocks on a latch): the rules of the draft as the client sees them.
 */
class IdempotencyFilterTest {

    private final AtomicLong wall = new AtomicLong(1_000_000);
    private final IdempotencyStore store = new MemoryIdempotencyStore(wall::get, Duration.ofHours(24), 100,
            AnswerLog.NONE);
    private final IdempotencyFilter filter = new IdempotencyFilter(store, 1024, Duration.ofMinutes(10));
    private final AtomicInteger runs = new AtomicInteger();
    /** The application: 201 with an ETag, a Location and a body naming the run. */
    private FilterChain application = (request, response) -> {
        int run = runs.incrementAndGet();
        request.getInputStream().readAllBytes();
        HttpServletResponse http = (HttpServletResponse) response;
        http.setStatus(201);
        http.setHeader("ETag", "\"" + run + "-1\"");
        http.setHeader("Location", "/timers/a");
        http.setHeader("X-Other", "not kept");
        http.setContentType("application/json");
        http.getOutputStream().write(("{\"run\":" + run + "}").getBytes(StandardCharsets.UTF_8));
    };

    private static MockHttpServletRequest post(String path, String key, String body) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
        if (key != null) {
            request.addHeader(IdempotencyFilter.HEADER, key);
        }
        request.setContentType("application/json");
        request.setContent(body.getBytes(StandardCharsets.UTF_8));
        return request;
    }

    private MockHttpServletResponse send(MockHttpServletRequest request) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request, response, application);
        return response;
    }

    @Test
    void aRepeatWithTheSameKeyAndBodyGetsTheFirstAnswerAgainMarkedReplayed() throws Exception {
        MockHttpServletResponse first = send(post("/timers", "k1", "{\"id\":\"a\",\"delay\":5}"));
        MockHttpServletResponse repeat = send(post("/timers", "k1", "{\"id\":\"a\",\"delay\":5}"));

        assertThat(runs).hasValue(1);
        assertThat(first.getHeader(IdempotencyFilter.REPLAYED)).isNull();
        assertThat(repeat.getStatus()).isEqualTo(201);
        assertThat(repeat.getContentAsString()).isEqualTo(first.getContentAsString()).isEqualTo("{\"run\":1}");
        assertThat(repeat.getHeader("ETag")).isEqualTo("\"1-1\"");
        assertThat(repeat.getHeader("Location")).isEqualTo("/timers/a");
        assertThat(repeat.getContentType()).isEqualTo("application/json");
        assertThat(repeat.getHeader("X-Other")).isNull();
        assertThat(repeat.getHeader(IdempotencyFilter.REPLAYED)).isEqualTo("true");
        assertThat(store.replays()).isEqualTo(1);
    }

    @Test
    void aSettlementsAnswerIsKeptForTheSettlementRetention_anAddsForTheWholeRetention() throws Exception {
        String ack = "/clocks/work/deliveries/d-1/ack";
        String ackMany = "/deliveries/ack";
        send(post(ack, "a1", "{}"));
        send(post(ackMany, "a2", "{}"));
        send(post("/clocks/work/timers", "t1", "{}"));
        wall.addAndGet(Duration.ofMinutes(10).toMillis() - 1);
        assertThat(send(post(ack, "a1", "{}")).getHeader(IdempotencyFilter.REPLAYED)).isEqualTo("true");

        wall.addAndGet(1);

        assertThat(send(post(ack, "a1", "{}")).getHeader(IdempotencyFilter.REPLAYED)).as("runs again").isNull();
        assertThat(send(post(ackMany, "a2", "{}")).getHeader(IdempotencyFilter.REPLAYED)).isNull();
        assertThat(send(post("/clocks/work/timers", "t1", "{}")).getHeader(IdempotencyFilter.REPLAYED))
                .isEqualTo("true");
        assertThat(runs).hasValue(5);
    }

    @Test
    void settlementsAreAcksNacksAndExtends_notAddsOrRedrives() {
        assertThat(IdempotencyFilter.isSettlement("/deliveries/d/nack")).isTrue();
        assertThat(IdempotencyFilter.isSettlement("/clocks/c/deliveries/d/extend")).isTrue();
        assertThat(IdempotencyFilter.isSettlement("/clocks/c/deliveries/ack")).isTrue();
        assertThat(IdempotencyFilter.isSettlement("/clocks/c/deliveries/dead/d/redrive")).isFalse();
        assertThat(IdempotencyFilter.isSettlement("/clocks/c/batch")).isFalse();
        assertThat(IdempotencyFilter.isSettlement("/clocks/c/timers")).isFalse();
    }

    @Test
    void theSameKeyWithAnotherBodyPathOrMethodIs422AndRunsNothing() throws Exception {
        send(post("/timers", "k1", "{\"id\":\"a\",\"delay\":5}"));

        MockHttpServletResponse otherBody = send(post("/timers", "k1", "{\"id\":\"a\",\"delay\":6}"));
        MockHttpServletResponse otherPath = send(post("/batch", "k1", "{\"id\":\"a\",\"delay\":5}"));

        assertThat(runs).hasValue(1);
        for (MockHttpServletResponse refused : new MockHttpServletResponse[] {otherBody, otherPath}) {
            assertThat(refused.getStatus()).isEqualTo(422);
            assertThat(refused.getContentType()).isEqualTo("application/problem+json");
            assertThat(refused.getContentAsString()).contains("\"code\":\"idempotency_key_reused\"");
        }
    }

    @Test
    void aRepeatWhileTheFirstRunsIs409WithRetryAfter() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FilterChain answering = application;
        application = (request, response) -> {
            entered.countDown();
            try {
                assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            answering.doFilter(request, response);
        };
        CompletableFuture<MockHttpServletResponse> first = CompletableFuture.supplyAsync(() -> {
            try {
                return send(post("/clocks/c1/advance", "k1", "{\"by\":5}"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

        MockHttpServletResponse repeat = send(post("/clocks/c1/advance", "k1", "{\"by\":5}"));

        assertThat(repeat.getStatus()).isEqualTo(409);
        assertThat(repeat.getHeader("Retry-After")).isEqualTo("1");
        assertThat(repeat.getContentAsString()).contains("\"code\":\"idempotency_key_in_use\"");
        release.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS).getStatus()).isEqualTo(201);
        assertThat(send(post("/clocks/c1/advance", "k1", "{\"by\":5}")).getHeader(IdempotencyFilter.REPLAYED))
                .isEqualTo("true");
        assertThat(runs).hasValue(1);
    }

    @Test
    void aServiceFailureIsNotKeptSoTheRetryRunsAgain() throws Exception {
        FilterChain succeeding = application;
        application = (request, response) -> {
            runs.incrementAndGet();
            ((HttpServletResponse) response).setStatus(503);
        };
        assertThat(send(post("/deliveries/d1/ack", "k1", "{\"claim\":\"c\"}")).getStatus()).isEqualTo(503);
        application = succeeding;

        MockHttpServletResponse retry = send(post("/deliveries/d1/ack", "k1", "{\"claim\":\"c\"}"));

        assertThat(retry.getStatus()).isEqualTo(201);
        assertThat(retry.getHeader(IdempotencyFilter.REPLAYED)).isNull();
        assertThat(runs).hasValue(2);
    }

    @Test
    void aRefusalOfTheRequestItselfIsKept() throws Exception {
        application = (request, response) -> {
            runs.incrementAndGet();
            ((HttpServletResponse) response).setStatus(409);
        };
        send(post("/deliveries/d1/nack", "k1", "{}"));

        assertThat(send(post("/deliveries/d1/nack", "k1", "{}")).getStatus()).isEqualTo(409);
        assertThat(runs).hasValue(1);
    }

    @Test
    void keysAreScopedToTheCallerAndTheClock() throws Exception {
        send(post("/timers", "k1", "{}"));
        MockHttpServletRequest otherCaller = post("/timers", "k1", "{}");
        otherCaller.setAttribute(Callers.ATTRIBUTE, "token:0123");
        send(otherCaller);
        send(post("/clocks/c2/timers", "k1", "{}"));
        assertThat(runs).hasValue(3);

        MockHttpServletRequest sameCaller = post("/timers", "k1", "{}");
        sameCaller.setAttribute(Callers.ATTRIBUTE, "token:0123");
        assertThat(send(sameCaller).getContentAsString()).isEqualTo("{\"run\":2}");
        assertThat(store.heldByClock()).containsEntry("default", 2L).containsEntry("c2", 1L);
    }

    @Test
    void aKeyThatIsNotVisibleAsciiOrTooLongIs400AndRunsNothing() throws Exception {
        for (String key : new String[] {"", "two words", "x".repeat(256), "\"quoted\\\"\"", "caf\u00e9"}) {
            MockHttpServletResponse refused = send(post("/timers", key, "{}"));
            assertThat(refused.getStatus()).as(key).isEqualTo(400);
            assertThat(refused.getContentAsString()).contains("\"code\":\"invalid_request\"");
        }
        assertThat(runs).hasValue(0);
        send(post("/timers", "\"quoted-key\"", "{}"));
        assertThat(send(post("/timers", "quoted-key", "{}")).getHeader(IdempotencyFilter.REPLAYED))
                .as("the draft's quoted form names the same key").isEqualTo("true");
        send(post("/timers", "x".repeat(255), "{}"));
        assertThat(runs).hasValue(2);
    }

    @Test
    void aBodyOverTheLimitIs413() throws Exception {
        MockHttpServletResponse refused = send(post("/timers", "k1", "x".repeat(1025)));

        assertThat(refused.getStatus()).isEqualTo(413);
        assertThat(runs).hasValue(0);
    }

    @Test
    void callsThatTakeNoKeyPassUntouched() throws Exception {
        for (MockHttpServletRequest request : new MockHttpServletRequest[] {
                new MockHttpServletRequest("GET", "/timers"), post("/deliveries/claim", "k1", "{}"),
                post("/clocks/c1", "k1", "{}"), new MockHttpServletRequest("DELETE", "/timers/a")}) {
            request.addHeader(IdempotencyFilter.HEADER, "k1");
            send(request);
            send(request);
        }
        assertThat(runs).hasValue(8);
        assertThat(IdempotencyFilter.clockOf("DELETE", "/clocks/c3/deliveries/dead/d1")).isEqualTo("c3");
        assertThat(IdempotencyFilter.clockOf("POST", "/deliveries/dead/d1/redrive")).isEqualTo("default");
        assertThat(IdempotencyFilter.clockOf("POST", "/clock/advance")).isEqualTo("default");
        assertThat(IdempotencyFilter.clockOf("POST", "/clocks/c1/batch")).isEqualTo("c1");
    }
}
