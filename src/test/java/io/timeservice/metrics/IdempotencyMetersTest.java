package io.timeservice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.timeservice.store.IdempotencyKey;
import io.timeservice.store.IdempotencyStore;
import io.timeservice.store.KeptAnswer;
import io.timeservice.store.memory.AnswerLog;
import io.timeservice.store.memory.MemoryIdempotencyStore;
import org.junit.jupiter.api.Test;

/** The keys held over every clock and the replays served, as the store counts them. */
class IdempotencyMetersTest {

    @Test
    void keysHeldAndReplaysServed() {
        IdempotencyStore store = new MemoryIdempotencyStore(() -> 1_000, Duration.ofHours(1), 10, AnswerLog.NONE);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new IdempotencyMeters(store).bindTo(registry);
        IdempotencyKey key = new IdempotencyKey("c1", "anonymous", "k");
        store.keep(key, (IdempotencyStore.Begun.Run) store.begin(key, "f"), new KeptAnswer("f", 204,
                java.util.List.of(), new byte[0]));
        store.begin(new IdempotencyKey("c2", "anonymous", "k"), "f");
        store.begin(key, "f");
        store.begin(key, "f");

        assertThat(registry.get("timer.idempotency.keys").gauge().value()).isEqualTo(2.0);
        assertThat(registry.get("timer.idempotency.replays").functionCounter().count()).isEqualTo(2.0);
    }
}
