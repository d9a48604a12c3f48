package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link AbsentIds} never calls a held id absent, through growth, drops and rebuilds, and calls most ids that are not
 * held absent (what it is for).
 */
class AbsentIdsTest {

    @Test
    void aHeldIdIsNeverSurelyAbsent_andMostOthersAre_throughGrowthDropsAndRebuilds() {
        Random random = new Random(43);
        Map<String, Boolean> held = new HashMap<>();
        AbsentIds absent = new AbsentIds();
        for (int step = 0; step < 200_000; step++) {
            String id = "id-" + random.nextInt(60_000);
            if (random.nextInt(3) > 0) {
                if (held.put(id, Boolean.TRUE) == null) {
                    absent.added(id, held);
                }
            } else if (held.remove(id) != null) {
                absent.removed(held);
            }
            if (step % 1_000 == 0) {
                for (String each : held.keySet()) {
                    assertThat(absent.surelyAbsent(each)).as("held %s", each).isFalse();
                }
            }
        }
        assertThat(held).hasSizeGreaterThan(10_000);
        int calledAbsent = 0;
        for (int i = 0; i < 10_000; i++) {
            calledAbsent += absent.surelyAbsent("new-" + i) ? 1 : 0;
        }
        assertThat(calledAbsent).as("ids never held, called surely absent").isGreaterThan(7_000);

        absent.cleared();
        held.clear();
        assertThat(absent.surelyAbsent("id-1")).isTrue();
    }
}
