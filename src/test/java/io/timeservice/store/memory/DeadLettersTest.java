package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Dead letters by sequence and by id. The work of taking a hot id's k dead deliveries out is counted as the reads
 * of their sequences (every comparison reads two): O(k log n), where one list per id made it O(k^2).
 */
class DeadLettersTest {

    private record Dead(String id, long sequence) {
    }

    private long sequenceReads;
    private final DeadLetters<Dead> dead = new DeadLetters<>(d -> {
        sequenceReads++;
        return d.sequence();
    }, Dead::id);

    @Test
    void takingOutAHotIdsDeadLetters_readsOLogNSequencesEach_andLeavesTheOthersInOrder() {
        int n = 100_000;
        for (long sequence = 1; sequence <= n; sequence++) {
            dead.add(new Dead(sequence % 2 == 0 ? "hot" : "cold-" + sequence % 7, sequence));
        }
        List<Dead> hot = new ArrayList<>(dead.of("hot", null));
        assertThat(hot).hasSize(n / 2).extracting(Dead::sequence).isSorted();

        Collections.shuffle(hot, new Random(34)); // deletes by sequence come in any order
        sequenceReads = 0;
        for (Dead d : hot) {
            assertThat(dead.remove(d.sequence())).isSameAs(d);
        }

        int log2n = 64 - Long.numberOfLeadingZeros(n);
        assertThat(sequenceReads).as("sequences read to take %d of %d out", hot.size(), n)
                .isLessThanOrEqualTo(4L * hot.size() * log2n);
        assertThat(dead.of("hot", null)).isEmpty();
        assertThat(dead.size()).isEqualTo(n / 2);
        assertThat(dead.after(0)).extracting(Dead::sequence).isSorted().allMatch(s -> s % 2 == 1);
        assertThat(dead.of("cold-3", null)).extracting(Dead::sequence).isSorted().allMatch(s -> s % 7 == 3);
    }

    @Test
    void oneSequence_isFoundOnlyUnderItsOwnId() {
        dead.add(new Dead("a", 5));
        dead.add(new Dead("b", 6));

        assertThat(dead.of("a", 5L)).containsExactly(new Dead("a", 5));
        assertThat(dead.of("a", 6L)).isEmpty();
        assertThat(dead.of("c", null)).isEmpty();
        assertThat(dead.after(5)).containsExactly(new Dead("b", 6));
    }
}
