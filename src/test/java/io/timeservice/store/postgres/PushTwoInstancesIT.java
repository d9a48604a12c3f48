package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import io.timeservice.push.Receiver;
import org.junit.jupiter.api.Test;

/**
 * Two instances of the packaged jar on one PostgreSQL schema push one system clock's deliveries: each instance's
 * pusher claims as a worker does, so every delivery reaches the receiver and is acknowledged once, over both
 * instances together. No lease ends during the test (the target answers at once; its timeout is 10 s).
 */
class PushTwoInstancesIT {

    private static final int TIMERS = 2_000;
    private static final Pattern SUCCESSES = Pattern.compile(
            "timer_push_attempts_total\\{[^}]*outcome=\"success\"[^}]*} ([0-9.eE+]+)");

    @Test
    void twoInstances_pushEveryDeliveryOnce() throws Exception {
        Map<String, AtomicInteger> received = new ConcurrentHashMap<>();
        try (Receiver receiver = new Receiver();
             TestDatabase database = TestDatabase.create(PushTwoInstancesIT.class, 1);
             ServiceProcess first = start(database.jdbcUrl());
             ServiceProcess second = start(database.jdbcUrl())) {
            receiver.answer(request -> {
                received.computeIfAbsent(request.header("webhook-id"), id -> new AtomicInteger()).incrementAndGet();
                return Receiver.Answer.status(200);
            });
            List<ServiceApi> instances = List.of(new ServiceApi(first.baseUrl()), new ServiceApi(second.baseUrl()));
            instances.get(0).expect(201, "PUT", "/clocks/hooks", "{\"mode\":\"system\",\"push\":{\"url\":\""
                    + receiver.url("/hooks") + "\",\"concurrency\":8}}");
            StringBuilder ops = new StringBuilder();
            for (int i = 0; i < TIMERS; i++) {
                ops.append(ops.length() == 0 ? "" : ",").append("{\"op\":\"add\",\"id\":\"t").append(i)
                        .append("\",\"delay\":").append(i % 1_000).append('}');
                if ((i + 1) % 500 == 0) {
                    // half the adds through each instance: both fire and both are notified
                    instances.get(((i + 1) / 500) % 2).expect(200, "POST", "/clocks/hooks/batch",
                            "{\"ops\":[" + ops + "]}");
                    ops.setLength(0);
                }
            }
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                    assertThat(instances.get(1).deliveryCounts("hooks").toString())
                            .contains("\"ready\":0,\"inFlight\":0,\"waiting\":0,\"dead\":0"));
            assertThat(instances.get(0).expect(200, "GET", "/clocks/hooks", null).get("size").asInt()).isZero();

            assertThat(received).hasSize(TIMERS);
            assertThat(received.values()).allSatisfy(times -> assertThat(times.get()).isEqualTo(1));
            assertThat(successes(instances.get(0)) + successes(instances.get(1))).isEqualTo(TIMERS);
        }
    }

    private static ServiceProcess start(String jdbcUrl) throws IOException {
        return ServiceProcess.start("--timeservice.store=postgresql", "--timeservice.durability=none",
                "--spring.datasource.url=" + jdbcUrl, "--timeservice.push.allow-private-targets=true");
    }

    private static long successes(ServiceApi instance) throws IOException {
        Matcher line = SUCCESSES.matcher(instance.send("GET", "/actuator/prometheus", null).body());
        assertThat(line.find()).as("timer_push_attempts_total{outcome=success}").isTrue();
        return (long) Double.parseDouble(line.group(1));
    }
}
