package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import io.timeservice.model.Timer;
import org.junit.jupiter.api.Test;

/**
 * The ring ({@link FlowRing}) and the keys by their oldest ready delivery ({@link OldestKeys}) of a flow-controlled
 * clock against simple references, over seeded random walks long enough to compact the ring and grow both arrays.
 */
class FlowStructuresModelTest {

    @Test
    void theRing_keepsTheTurnOrderOfATreeByTicket() {
        for (long seed = 1; seed <= 3; seed++) {
            Random random = new Random(seed);
            FlowRing ring = new FlowRing();
            TreeMap<Long, FlowKey> reference = new TreeMap<>();
            List<FlowKey> keys = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                keys.add(new FlowKey("k" + i, Integer.MAX_VALUE, null));
            }
            long ticket = 0;
            for (int step = 0; step < 20_000; step++) {
                FlowKey k = keys.get(random.nextInt(step < 10_000 ? keys.size() : 20)); // then few live, many stale
                if (k.ticket < 0) {
                    ring.add(k);
                    assertThat(k.ticket).as("seed %d step %d", seed, step).isEqualTo(ticket);
                    reference.put(ticket++, k);
                } else {
                    reference.remove(k.ticket);
                    ring.remove(k);
                    assertThat(k.ticket).isEqualTo(-1);
                }
                if (step % 97 == 0 || reference.size() < 3) {
                    assertThat(turns(ring)).as("seed %d step %d", seed, step)
                            .containsExactlyElementsOf(reference.values());
                    assertThat(ring.isEmpty()).isEqualTo(reference.isEmpty());
                }
            }
        }
    }

    @Test
    void theOldestKeys_giveTheOldestReadyTimeOfAnyKey() {
        for (long seed = 1; seed <= 3; seed++) {
            Random random = new Random(seed);
            OldestKeys oldest = new OldestKeys();
            List<FlowKey> keys = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                keys.add(new FlowKey("k" + i, Integer.MAX_VALUE, null));
            }
            long sequence = 0;
            for (int step = 0; step < 20_000; step++) {
                FlowKey k = keys.get(random.nextInt(keys.size()));
                if (random.nextInt(5) < 3 || k.ready.isEmpty()) {
                    DeliveryQueue.Entry entry = new DeliveryQueue.Entry(new Timer("t" + sequence, 0, 0, sequence++,
                            1, 0, null));
                    entry.readyAt = random.nextInt(1_000);
                    k.ready.add(entry);
                } else {
                    k.ready.pollFirst();
                }
                oldest.update(k);
                long expected = keys.stream().filter(key -> !key.ready.isEmpty())
                        .mapToLong(key -> key.ready.first().readyAt).min().orElse(Long.MAX_VALUE);
                assertThat(oldest.oldestReadyAt()).as("seed %d step %d", seed, step).isEqualTo(expected);
                assertThat(k.heapIndex >= 0).isEqualTo(!k.ready.isEmpty());
            }
        }
    }

    private static List<FlowKey> turns(FlowRing ring) {
        List<FlowKey> order = new ArrayList<>();
        FlowRing.Turns turns = ring.turns();
        while (turns.hasNext()) {
            order.add(turns.next());
        }
        return order;
    }
}
