package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;
import io.timeservice.store.Stores;
import io.timeservice.store.postgres.PostgresContractStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The pusher on the PostgreSQL store held to a key's concurrency (issue 44): with a concurrency of 1 per key, a key's
 * second delivery is not pushed while its first is open at the receiver, however many rounds the pusher claims
 * meanwhile, while another key's goes at once; when the first is answered the next follows, in the key's order.
 */
class PusherPostgresFlowTest {

    @RegisterExtension
    static final PostgresContractStores DATABASE = new PostgresContractStores(PusherPostgresFlowTest.class);

    private static final RetryPolicy RETRY = new RetryPolicy(3, 1_000, 2.0, 5_000, 0);

    private Stores stores;
    private SettleRecorder deliveries;
    private ScheduledExecutorService timeouts;
    private Receiver receiver;
    private PushClient client;
    private Pusher pusher;

    @BeforeEach
    void start() throws Exception {
        stores = DATABASE.open(Stores.Limits.ROOMY);
        deliveries = new SettleRecorder(stores.deliveries());
        receiver = new Receiver();
        timeouts = Executors.newSingleThreadScheduledExecutor();
        client = new PushClient(new PushTargetPolicy(true, List.of(), InetAddress::getAllByName), 1, 100, timeouts,
                System::currentTimeMillis);
        // a sweep every 50 ms: the PostgreSQL store's notifications may be lost, so each sweep claims again
        pusher = new Pusher(stores.clocks(), deliveries, client, (kind, nanos) -> { }, 2, timeouts,
                Duration.ofMillis(50), false, null);
        pusher.start();
    }

    @AfterEach
    void stop() throws Exception {
        pusher.close();
        client.close();
        receiver.close();
        timeouts.shutdownNow();
        stores.close();
    }

    @Test
    void aKeysPushes_areHeldToItsConcurrency_whileAnotherKeysGo() throws Exception {
        stores.clocks().create("flow", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL,
                ClockSettings.DeliveryMode.PUSH, RETRY, null, new PushTarget(receiver.url("/hooks"), 2_000, 4,
                        Map.of(), List.of())).withFlow(new FlowLimits(1, null, null, null, null)));
        CountDownLatch release = new CountDownLatch(1);
        receiver.answer(request -> Receiver.Answer.heldUntil(release));
        for (int i = 0; i < 3; i++) {
            stores.timers().add("flow", "k" + i, Due.after(10), 0, null, null, "k", Trace.NONE);
        }
        stores.timers().add("flow", "j0", Due.after(10), 0, null, null, "j", Trace.NONE);

        stores.timers().advance("flow", 10L, null, 100, Trace.NONE);

        List<String> first = List.of(receiver.next().body(), receiver.next().body());
        assertThat(first).anySatisfy(body -> assertThat(body).contains("\"id\":\"k0\"", "\"key\":\"k\""))
                .anySatisfy(body -> assertThat(body).contains("\"id\":\"j0\"", "\"key\":\"j\""));
        int claimsBefore = deliveries.claimsOf.get();
        await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.claimsOf.get() >= claimsBefore + 5);
        assertThat(receiver.nextWithin(0)).as("k1 is held back while k0 is open, after five more claims").isNull();
        assertThat(stores.deliveries().counts("flow").ready()).as("k1 and k2 wait, ready").isEqualTo(2);
        assertThat(stores.deliveries().counts("flow").inFlight()).isEqualTo(2);
        release.countDown();
        assertThat(receiver.next().body()).contains("\"id\":\"k1\"");
        assertThat(receiver.next().body()).contains("\"id\":\"k2\"");
        assertThat(receiver.mostOpen()).isLessThanOrEqualTo(2);
    }
}
