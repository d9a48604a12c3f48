package io.timeservice.store.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.timeservice.model.AdvanceResult;
import io.timeservice.model.HeapView;
import io.timeservice.model.Precondition;
import io.timeservice.model.Trace;
import io.timeservice.model.TraceStep;
import io.timeservice.store.memory.heap.HeapTraceReplay;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Replays every recorded trace strictly, as {@link TraceStep} documents it (a move or place fills a hole, a remove
 * or lift empties the slot its id is in), and checks that it turns the array before the operation into the array
 * after it.
 */
class TraceReplayTest {

    @ParameterizedTest(name = "arity {0}, seed {1}")
    @CsvSource({"2, 1", "4, 2", "8, 3", "2, 42", "4, 43", "8, 44"})
    void randomOperations_traceReplaysToTheNewArray(int arity, long seed) {
        Random random = new Random(seed);
        MemoryClock scheduler = MemoryClock.withVirtualClock(arity, 10_000);
        List<String> pending = new ArrayList<>();
        for (int step = 0; step < 500; step++) {
            List<String> before = slots(scheduler);
            List<TraceStep> trace = new ArrayList<>();
            int choice = random.nextInt(10);
            String what;
            if (choice < 5 || pending.isEmpty()) {
                String id = "t" + step;
                scheduler.add(id, random.nextInt(50), random.nextInt(3), null, Trace.into(trace));
                pending.add(id);
                what = "add " + id;
            } else if (choice < 7) {
                String id = pending.remove(random.nextInt(pending.size()));
                scheduler.cancel(id, Precondition.NONE, Trace.into(trace));
                what = "cancel " + id;
            } else if (choice < 9) {
                String id = pending.get(random.nextInt(pending.size()));
                scheduler.edit(id, (long) random.nextInt(50), random.nextInt(3), Precondition.NONE, Trace.into(trace));
                what = "edit " + id;
            } else {
                AdvanceResult result = scheduler.advance(random.nextInt(10), Trace.into(trace));
                result.fired().forEach(timer -> pending.remove(timer.id()));
                what = "advance";
            }
            String context = "seed " + seed + ", step " + step + " (" + what + "), trace " + trace;
            assertEquals(slots(scheduler), HeapTraceReplay.replay(before, trace, context), context);
        }
    }

    private static List<String> slots(MemoryClock scheduler) {
        return scheduler.heapView(Integer.MAX_VALUE).slots().stream().map(HeapView.Cell::id).toList();
    }
}
