package io.timeservice.store.memory.heap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import io.timeservice.model.InvariantReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reserved ids kept in the heap's own id index ({@link ReservedIds}): random adds, cancels, firings, reservations,
 * re-queued windows, expiries and clears against a model of maps, with the four invariants checked after every step
 * (the index must hold exactly the pending ids plus the reserved ones, and must not count a reservation as a heap
 * entry), and {@link IndexedTimerHeap#lookup} answering pending, reserved or free as the model does. Seeded, so a
 * failure repeats.
 */
class ReservedIdsModelTest {

    private static final int IDS = 300;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void pendingAndReservedIds_shareTheIndex_inLockstepWithTheModel(long seed) {
        Random random = new Random(seed);
        IndexedTimerHeap heap = new IndexedTimerHeap(4);
        ReservedIds reserved = heap.reserved();
        Map<String, Long> pending = new HashMap<>(); // id -> sequence
        Map<String, Long> reservedModel = new HashMap<>(); // id -> time
        ArrayDeque<String> startOrder = new ArrayDeque<>(); // the model's queue places, by id (a place per window)
        long sequence = 0;
        for (int step = 0; step < 1_500; step++) {
            String id = "id-" + random.nextInt(IDS);
            int action = random.nextInt(10);
            if (action < 4) { // add, as a clock does: only when neither pending nor reserved
                int found = heap.lookup(id);
                assertThat(found >= 0).as("step %d: %s pending", step, id).isEqualTo(pending.containsKey(id));
                assertThat(ReservedIds.isReservation(found)).as("step %d: %s reserved", step, id)
                        .isEqualTo(!pending.containsKey(id) && reservedModel.containsKey(id));
                if (found == IndexedTimerHeap.NONE) {
                    heap.insert(id, 1_000 + random.nextInt(1_000), 0, ++sequence, 1, 0, 0, null);
                    pending.put(id, sequence);
                }
            } else if (action < 6 && pending.containsKey(id)) { // cancel: the id becomes reserved
                heap.remove(heap.find(id));
                pending.remove(id);
                reserve(reserved, id, step, reservedModel, startOrder);
            } else if (action == 6 && !pending.isEmpty()) { // fire the root: reserved from its fireTime
                int root = heap.peek();
                String fired = heap.records().idOf(root);
                heap.popDue(heap.fireTime(root), 1, (handle, fireTime, priority, seq, levels) -> { });
                pending.remove(fired);
                reserve(reserved, fired, step, reservedModel, startOrder);
            } else if (action == 7 && !startOrder.isEmpty()) { // the oldest window ends
                String oldest = startOrder.pollFirst();
                int first = reserved.first();
                assertThat(reserved.id(first)).as("step %d: head of the start queue", step).isEqualTo(oldest);
                boolean current = reserved.places(first) == 1;
                assertThat(current).as("step %d: %s's last place", step, oldest)
                        .isEqualTo(!startOrder.contains(oldest));
                reserved.dequeue();
                if (current) {
                    reserved.forget(first);
                    reservedModel.remove(oldest);
                }
            } else if (action == 8 && reservedModel.containsKey(id)) { // released early
                reserved.forget(reserved.find(id));
                reservedModel.remove(id);
                startOrder.removeIf(id::equals); // its places now name a forgotten number, skipped below
                skipForgotten(reserved, startOrder);
            } else if (action == 9 && reservedModel.containsKey(id) && random.nextBoolean()) { // window restarts
                reserve(reserved, id, step, reservedModel, startOrder); // (acknowledged after firing)
            } else if (action == 9 && random.nextInt(40) == 0) { // the heap alone is cleared: reservations stay
                heap.clear();
                pending.clear();
            }
            skipForgotten(reserved, startOrder);
            assertMatches(heap, pending, reservedModel, "step " + step);
        }
    }

    @Test
    void aDrainedHeap_releasesItsArrays_butKeepsItsReservationsIndexed() {
        IndexedTimerHeap heap = new IndexedTimerHeap(8);
        for (int i = 0; i < 10_000; i++) {
            heap.insert("t" + i, i, 0, i + 1, 1, 0, 0, null);
        }
        heap.popDue(20_000, Integer.MAX_VALUE, (handle, fireTime, priority, sequence, levels) ->
                heap.reserved().add(heap.records().idOf(handle), 0, fireTime, sequence));
        assertThat(heap.size()).isZero();
        assertThat(HeapTestSupport.handleCapacity(heap)).as("the drained burst's records are given back")
                .isLessThan(10_000);
        assertThat(heap.reserved().size()).isEqualTo(10_000);
        assertThat(ReservedIds.isReservation(heap.lookup("t9999"))).isTrue();
        assertThat(heap.find("t9999")).as("a reserved id is not a pending one").isEqualTo(IndexedTimerHeap.NONE);
        assertThat(HeapInvariants.check(heap, 20_000).ok()).isTrue();
    }

    @Test
    void clearingTheReservations_leavesThePendingTimersIndexed() {
        IndexedTimerHeap heap = new IndexedTimerHeap(4);
        for (int i = 0; i < 100; i++) {
            heap.insert("p" + i, 10 + i, 0, i + 1, 1, 0, 0, null);
            heap.reserved().add("r" + i, 0, i, i);
        }
        heap.reserved().clear();
        assertThat(heap.reserved().size()).isZero();
        assertThat(heap.lookup("r5")).isEqualTo(IndexedTimerHeap.NONE);
        assertThat(heap.lookup("p5")).isEqualTo(heap.find("p5")).isNotNegative();
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
    }

    @Test
    void anIdBothPendingAndReserved_isFoundAsPendingByTheAdd_andEachKindFindsItsOwn() {
        IndexedTimerHeap heap = new IndexedTimerHeap(4);
        int number = heap.reserved().add("same", 0, 5, 1); // a window-less clock still holding a pinned one
        int handle = heap.insert("same", 100, 0, 2, 1, 0, 0, null);
        assertThat(heap.lookup("same")).isEqualTo(handle);
        assertThat(heap.find("same")).isEqualTo(handle);
        assertThat(heap.reserved().find("same")).isEqualTo(number);
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
        heap.remove(handle);
        assertThat(heap.lookup("same")).satisfies(found ->
                assertThat(ReservedIds.numberOf(found)).isEqualTo(number));
    }

    @Test
    void aReservationsIndexEntryLost_failsTheIndexCheck_withoutCountingItAsAHeapEntry() {
        IndexedTimerHeap heap = new IndexedTimerHeap(4);
        heap.insert("pending", 10, 0, 1, 1, 0, 0, null);
        int number = heap.reserved().add("gone", 0, 0, 0);
        assertThat(HeapInvariants.check(heap, 0).ok()).isTrue();
        IdIndex index = heap.records().index();
        index.remove(index.hash("gone"), ReservedIds.entryOf(number));
        InvariantReport report = HeapInvariants.check(heap, 0);
        assertThat(report.ok()).isFalse();
        assertThat(failure(report)).contains("reserved");
    }

    @Test
    void aCopy_carriesTheReservations_independently() {
        IndexedTimerHeap heap = new IndexedTimerHeap(4);
        heap.reserved().add("kept", 0, 0, 0);
        IndexedTimerHeap copy = heap.copy();
        heap.reserved().forget(heap.reserved().find("kept"));
        assertThat(ReservedIds.isReservation(copy.lookup("kept"))).isTrue();
        assertThat(heap.lookup("kept")).isEqualTo(IndexedTimerHeap.NONE);
        assertThat(HeapInvariants.check(copy, 0).ok()).isTrue();
    }

    private static String failure(InvariantReport report) {
        return report.checks().stream().filter(check -> !check.ok()).map(InvariantReport.Check::detail)
                .findFirst().orElse("");
    }

    private static void reserve(ReservedIds reserved, String id, long time, Map<String, Long> model,
                                ArrayDeque<String> startOrder) {
        int number = reserved.find(id);
        if (number == ReservedIds.NONE) {
            number = reserved.add(id, 0, time, time);
        } else {
            reserved.set(number, 1, time, time);
        }
        reserved.enqueue(number);
        model.put(id, time);
        startOrder.addLast(id);
    }

    /** Pops the places of forgotten numbers from the head, as expiry skips them. */
    private static void skipForgotten(ReservedIds reserved, ArrayDeque<String> startOrder) {
        int first;
        while ((first = reserved.first()) != ReservedIds.NONE && !reserved.isLive(first)) {
            reserved.dequeue();
        }
    }

    private static void assertMatches(IndexedTimerHeap heap, Map<String, Long> pending, Map<String, Long> reserved,
                                      String context) {
        InvariantReport report = HeapInvariants.check(heap, 0);
        assertThat(report.ok()).as("%s: %s", context, failure(report)).isTrue();
        assertThat(heap.size()).as(context).isEqualTo(pending.size());
        assertThat(heap.reserved().size()).as(context).isEqualTo(reserved.size());
        Map<String, Long> reservedNow = new TreeMap<>();
        heap.reserved().forEach(number -> reservedNow.put(heap.reserved().id(number), heap.reserved().time(number)));
        assertThat(reservedNow).as(context).isEqualTo(new TreeMap<>(reserved));
        List<String> pendingNow = new ArrayList<>();
        for (String id : pending.keySet()) {
            if (heap.find(id) >= 0) {
                pendingNow.add(id);
            }
        }
        assertThat(pendingNow).as(context).hasSize(pending.size());
    }
}
