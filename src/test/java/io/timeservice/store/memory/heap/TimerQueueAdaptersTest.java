package io.timeservice.store.memory.heap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import io.timeservice.model.InvariantReport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keeps the benchmark comparison honest: one seeded random sequence of adds, cancels, edits (earlier and later),
 * firings (one by one, and in bulk with a limit), peeks and listings goes through every design, and every design must answer every operation the same,
 * so all of them fire the same timers in the same order. Ids are reused after they leave, fireTimes collide often.
 */
class TimerQueueAdaptersTest {

    private static final int OPERATIONS = 10_000;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void sameOperations_giveSameAnswersAndFiringOrder_inEveryDesign(long seed) {
        List<TimerQueueUnderTest> queues = new ArrayList<>();
        for (String name : TimerQueues.ALL) {
            queues.add(TimerQueues.create(name));
        }
        for (String name : TimerQueues.VARIANTS) {
            queues.add(TimerQueues.create(name));
        }
        Random random = new Random(seed);
        String[] ids = new String[600]; // fewer ids than operations: adds of pending ids are refused, ids are reused
        for (int i = 0; i < ids.length; i++) {
            ids[i] = "timer-" + Integer.toString(i * 7919, 36);
        }
        long now = 0;
        int fired = 0;
        for (int op = 0; op < OPERATIONS; op++) {
            String id = ids[random.nextInt(ids.length)];
            int kind = random.nextInt(100);
            int opNumber = op;
            Supplier<String> step =
                    () -> "seed " + seed + ", operation " + opNumber + " (kind " + kind + ", id " + id + ")";
            Object expected = null;
            for (int q = 0; q < queues.size(); q++) {
                TimerQueueUnderTest queue = queues.get(q);
                Random same = new Random(seed * 1_000_003L + op); // the same arguments for every design
                Object answer;
                if (kind < 40) {
                    answer = queue.add(id, now + delay(same), same.nextInt(3));
                } else if (kind < 55) {
                    answer = queue.cancel(id);
                } else if (kind < 75) {
                    answer = queue.edit(id, now + delay(same), same.nextInt(3));
                } else if (kind < 82) {
                    long until = now + same.nextInt(200);
                    List<String> out = new ArrayList<>();
                    for (String due; (due = queue.pollDue(until)) != null; ) {
                        out.add(due);
                    }
                    answer = out;
                } else if (kind < 90) {
                    long until = now + same.nextInt(200);
                    String[] into = new String[1 + same.nextInt(IndexedTimerHeap.POP_CHUNK * 3)];
                    answer = new ArrayList<>(Arrays.asList(into).subList(0, queue.drain(until, into)));
                } else if (kind < 97) {
                    answer = queue.peek() + "@" + queue.nextFireTime();
                } else {
                    answer = List.of(queue.firstN(1 + same.nextInt(120)));
                }
                if (q == 0) {
                    expected = answer;
                } else {
                    assertEquals(expected, answer, () -> step.get() + ": " + queue.name() + " differs from "
                            + queues.get(0).name());
                }
                assertEquals(queues.get(0).size(), queue.size(), () -> step.get() + ": size of " + queue.name());
            }
            if (kind >= 75 && kind < 90) {
                fired += ((List<?>) expected).size();
                now += new Random(seed * 1_000_003L + op).nextInt(200);
            }
            if (op % 500 == 0) {
                for (TimerQueueUnderTest queue : queues) {
                    if (queue instanceof TimerQueues.OurHeap ours) {
                        InvariantReport report = HeapInvariants.check(ours.heap, now);
                        assertTrue(report.ok(), () -> step.get() + ": " + queue.name() + " " + report.firstFailure());
                    }
                }
            }
        }
        assertTrue(fired > 500, "the sequence should fire plenty of timers, fired " + fired);
        // Drain: the rest fires in the same order everywhere.
        String[] rest = drain(queues.get(0));
        for (TimerQueueUnderTest queue : queues.subList(1, queues.size())) {
            assertArrayEquals(rest, drain(queue), "seed " + seed + ": drain order of " + queue.name());
        }
    }

    /** Delays over an hour of ms, half of them whole seconds (so fireTimes tie often), some zero. */
    private static long delay(Random random) {
        int ms = random.nextInt(3_600_000);
        return switch (random.nextInt(4)) {
            case 0 -> ms;
            case 1 -> ms - ms % 1000;
            case 2 -> random.nextInt(5);
            default -> ms % 50;
        };
    }

    private static String[] drain(TimerQueueUnderTest queue) {
        List<String> out = new ArrayList<>();
        for (String due; (due = queue.pollDue(Long.MAX_VALUE)) != null; ) {
            out.add(due);
        }
        assertEquals(0, queue.size());
        return out.toArray(String[]::new);
    }
}
