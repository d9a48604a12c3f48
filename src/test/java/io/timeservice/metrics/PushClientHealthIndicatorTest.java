package io.timeservice.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import io.timeservice.push.PushClient;
import io.timeservice.push.PushTargetPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The pushClient component: UP while the client's I/O reactor is active, DOWN once it is not. */
class PushClientHealthIndicatorTest {

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final PushClient client = new PushClient(new PushTargetPolicy(false, List.of(),
            InetAddress::getAllByName), 1, 10, timers, System::currentTimeMillis);
    private final PushClientHealthIndicator indicator = new PushClientHealthIndicator(client);

    @AfterEach
    void stop() {
        client.close();
        timers.shutdownNow();
    }

    @Test
    void up_whileTheReactorIsActive_andDown_onceItIsNot() {
        // start() only asks the library to start its I/O thread: the reactor reads INACTIVE until that thread runs
        assertThat(client.reactorStatus()).isIn("INACTIVE", "ACTIVE");
        await().atMost(Duration.ofSeconds(30)).until(() -> "ACTIVE".equals(client.reactorStatus()));
        Health active = indicator.health();
        assertThat(active.getStatus()).isEqualTo(Status.UP);
        assertThat(active.getDetails()).containsEntry("ioReactor", "ACTIVE").containsEntry("restarts", 0L)
                .doesNotContainKey("lastRestart");

        client.close(); // as a reactor whose I/O thread died is, once the library shut it down

        Health down = indicator.health();
        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
        assertThat(down.getDetails()).containsEntry("ioReactor", "SHUT_DOWN");
    }
}
