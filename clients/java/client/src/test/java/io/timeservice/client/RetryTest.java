package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which calls the client repeats. The real service cannot be made to answer 503 on demand (it does after a journal
 * failure), so a stub on a loopback port answers a scripted sequence of statuses and counts the requests.
 */
class RetryTest {

    private static final String CLOCK = "{\"name\":\"c\",\"now\":0,\"size\":0,\"nextFireTime\":null,\"oldestAge\":null,"
            + "\"createdAt\":0,\"mode\":\"virtual\",\"delivery\":\"response\",\"retry\":{\"maxAttempts\":10,"
            + "\"initialBackoff\":1000,\"multiplier\":2.0,\"maxBackoff\":300000,\"jitter\":0.2}}";
    private static final String UNAVAILABLE = "{\"type\":\"urn:timeservice:problem:storage_unavailable\",\"title\":"
            + "\"Service Unavailable\",\"status\":503,\"detail\":\"the journal failed\",\"instance\":\"/x\","
            + "\"code\":\"storage_unavailable\"}";

    private StubService server;
    private final Deque<Integer> statuses = new ArrayDeque<>();
    private final AtomicInteger requests = new AtomicInteger();
    private ClockClient clock;

    @BeforeEach
    void startStub() {
        server = StubService.answering(request -> {
            requests.incrementAndGet();
            Integer scripted = statuses.poll();
            int status = scripted == null ? 200 : scripted;
            return status == 502 ? new StubService.Answer(502, "text/html", "<html>bad gateway</html>")
                    : StubService.Answer.json(status, status == 503 ? UNAVAILABLE : CLOCK);
        });
        clock = server.clock("c");
    }

    @AfterEach
    void stopStub() {
        server.close();
    }

    @Test
    void read_after503s_isRepeatedUntilItIsAnswered() {
        statuses.add(503);
        statuses.add(503);

        assertEquals("c", clock.info().name());
        assertEquals(3, requests.get());
    }

    @Test
    void read_503OnEveryAttempt_givesUpAfterFourWithTheProblem() {
        for (int i = 0; i < 10; i++) {
            statuses.add(503);
        }

        TimeServiceException refused = assertThrows(TimeServiceException.class, clock::info);

        assertEquals(Transport.ATTEMPTS, requests.get());
        assertEquals(503, refused.status());
        assertEquals("storage_unavailable", refused.code());
        assertEquals("the journal failed", refused.detail());
    }

    @Test
    void add_after503_isNotRepeated() {
        statuses.add(503);

        TimeServiceException refused = assertThrows(TimeServiceException.class,
                () -> clock.add("A", Duration.ofSeconds(1)));

        assertEquals(1, requests.get());
        assertEquals("storage_unavailable", refused.code());
    }

    @Test
    void snapshot_after503_isRepeated_forkLoadAndScheduleChanges_areNot() {
        statuses.add(503);
        assertEquals(Json.parse(CLOCK).toString(), clock.snapshot().json());        // the stub answers its clock
        assertEquals(2, requests.get());

        for (Runnable change : List.<Runnable>of(() -> clock.fork("d"),
                () -> clock.schedules().pause("s"), () -> clock.schedules().trigger("s"), () -> clock.changeRate(2),
                () -> TimeServiceClient.connect(server.uri())
                        .loadClock("d", ClockSnapshot.of("{}")))) {
            requests.set(0);
            statuses.add(503);
            assertEquals("storage_unavailable", assertThrows(TimeServiceException.class, change::run).code());
            assertEquals(1, requests.get());
        }
    }

    @Test
    void answerWithoutProblem_becomesAProblemNamedAfterItsStatus() {
        statuses.add(502);

        TimeServiceException refused = assertThrows(TimeServiceException.class, () -> clock.cancel("A"));

        assertEquals(502, refused.status());
        assertEquals("internal_error", refused.code());
        assertEquals("/clocks/c/timers/A", refused.problem().instance());
    }

    @Test
    void noService_readIsTriedFourTimes_addOnce_bothFailUnchecked() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        ClockClient nowhere = TimeServiceClient.connect(URI.create("http://127.0.0.1:" + closedPort)).clock("c");

        assertThrows(UncheckedIOException.class, nowhere::info);
        assertThrows(UncheckedIOException.class, () -> nowhere.add("A", Duration.ZERO));
    }

    @Test
    void pathSegments_areEncodedUnlessUrlSafe() {
        assertEquals("a-b.c_d~e:f", Transport.segment("a-b.c_d~e:f"));
        assertEquals("a%2Fb%20c%C3%A9", Transport.segment("a/b cé"));
    }
}
