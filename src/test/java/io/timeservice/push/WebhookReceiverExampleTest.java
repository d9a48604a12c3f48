package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import com.sun.net.httpserver.HttpServer;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.MemoryDeliveryStore;
import io.timeservice.store.memory.MemoryTimerStore;
import org.junit.jupiter.api.Test;

/** The documented receiver accepts the service's pushes and refuses a forged or tampered one. */
class WebhookReceiverExampleTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @Test
    void theExampleReceiver_acceptsARealPush_andRefusesAForgedOne() throws Exception {
        HttpServer receiver = WebhookReceiverExample.start(0, SECRET);
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
        ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, 1_000, 1 << 20, 10);
        SettleRecorder deliveries = new SettleRecorder(new MemoryDeliveryStore(clocks));
        String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/timers";
        try (PushClient client = new PushClient(new PushTargetPolicy(true, List.of(), InetAddress::getAllByName), 1,
                10, timers, System::currentTimeMillis);
             Pusher pusher = new Pusher(new MemoryClockStore(clocks), deliveries, client, PushMetrics.NONE, 1, timers,
                     Duration.ofSeconds(1), false, null)) {
            pusher.start();
            new MemoryClockStore(clocks).create("docs", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL,
                    ClockSettings.DeliveryMode.PUSH, RetryPolicy.DEFAULT, null,
                    new PushTarget(url, 2_000, 1, Map.of(), List.of(SECRET))));
            MemoryTimerStore timerStore = new MemoryTimerStore(clocks);
            timerStore.add("docs", "a", 0, 0, "{\"x\":1}", Trace.NONE);
            timerStore.advance("docs", 0L, null, 10, Trace.NONE);

            assertThat(deliveries.next().call()).as("a 204 acknowledged the push").isEqualTo("ack");

            HttpRequest forged = HttpRequest.newBuilder(URI.create(url))
                    .header("webhook-id", "docs:1")
                    .header("webhook-timestamp", Long.toString(System.currentTimeMillis() / 1000))
                    .header("webhook-signature", "v1," + java.util.Base64.getEncoder().encodeToString(new byte[32]))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
            assertThat(HttpClient.newHttpClient().send(forged, HttpResponse.BodyHandlers.discarding()).statusCode())
                    .isEqualTo(401);
        } finally {
            receiver.stop(0);
            timers.shutdownNow();
        }
    }
}
