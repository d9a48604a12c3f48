package io.timeservice.store.memory.heap;


/**
 * Walks that read an {@link IndexedTimerHeap} in firing order from the root without touching the rest of it: the
 * first k timers (a best-first walk with a small frontier heap of slots) and the count of the due ones (the due
 * timers form a subtree at the root). Each walk allocates its own small arrays, except {@link #firstDueSlots}, which
 * works in the caller's (the heap's bulk pop); the heap is only read.
 *
 * <p>Not thread-safe: call only while the heap's owner holds its lock.
 */
public final class FiringOrderWalk {

    private FiringOrderWalk() {
    }

    /**
     * The first {@code limit} handles in firing order, without copying or sorting the heap: a best-first walk from
     * the root with a candidate queue of the frontier (each taken slot adds its d children). Costs
     * O(limit * d * log(limit * d)).
     */
    public static int[] firstInOrder(IndexedTimerHeap heap, int limit) {
        int count = Math.min(limit, heap.size());
        int[] result = new int[count];
        if (count == 0) {
            return result;
        }
        int[] frontier = new int[(int) Math.min(heap.size(), 1L + (long) count * (heap.arity() - 1))];
        firstDueSlots(heap, Long.MAX_VALUE, count, result, frontier);
        for (int i = 0; i < count; i++) {
            result[i] = heap.handleAt(result[i]);
        }
        return result;
    }

    /**
     * Writes the slots of the first {@code max} timers due at {@code now} (fireTime at or before it; fewer if fewer
     * are) into {@code into} in firing order and returns how many, using {@code frontier} (room for
     * {@code 1 + max * (d - 1)} slots) for the candidates: the walk of {@link #firstInOrder}, without allocating.
     */
    static int firstDueSlots(IndexedTimerHeap heap, long now, int max, int[] into, int[] frontier) {
        int size = heap.size();
        int arity = heap.arity();
        if (size == 0 || max <= 0) {
            return 0;
        }
        // The frontier is a binary min-heap of slots; each step takes one slot and adds at most d children.
        int frontierSize = 1;
        frontier[0] = 0;
        int count = 0;
        while (count < max && frontierSize > 0 && heap.fireTimeAt(frontier[0]) <= now) {
            int slot = frontier[0];
            into[count++] = slot;
            frontierSize = popFrontier(heap, frontier, frontierSize);
            int first = slot * arity + 1;
            for (int child = first; child < first + arity && child < size; child++) {
                frontierSize = pushFrontier(heap, frontier, frontierSize, child);
            }
        }
        return count;
    }

    /**
     * How many pending timers are due at {@code now} (fireTime at or before it), counting no further than
     * {@code limit}. The due timers form a subtree at the root (no child precedes its parent), so a walk of that
     * subtree costs O(min(due, limit) * d) and touches nothing else.
     */
    public static int countDue(IndexedTimerHeap heap, long now, int limit) {
        int size = heap.size();
        int arity = heap.arity();
        if (size == 0 || limit <= 0 || heap.fireTimeAt(0) > now) {
            return 0;
        }
        int[] pending = new int[(int) Math.min(size, 1L + (long) limit * arity)];
        int pendingSize = 1;
        int count = 0;
        while (pendingSize > 0 && count < limit) {
            int slot = pending[--pendingSize];
            count++;
            int first = slot * arity + 1;
            for (int child = first; child < first + arity && child < size; child++) {
                if (heap.fireTimeAt(child) <= now) {
                    pending[pendingSize++] = child;
                }
            }
        }
        return count;
    }

    private static int pushFrontier(IndexedTimerHeap heap, int[] frontier, int frontierSize, int slot) {
        int at = frontierSize;
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (heap.compareSlots(slot, frontier[parent]) >= 0) {
                break;
            }
            frontier[at] = frontier[parent];
            at = parent;
        }
        frontier[at] = slot;
        return frontierSize + 1;
    }

    private static int popFrontier(IndexedTimerHeap heap, int[] frontier, int frontierSize) {
        int last = frontier[--frontierSize];
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= frontierSize) {
                break;
            }
            if (child + 1 < frontierSize && heap.compareSlots(frontier[child + 1], frontier[child]) < 0) {
                child++;
            }
            if (heap.compareSlots(frontier[child], last) >= 0) {
                break;
            }
            frontier[at] = frontier[child];
            at = child;
        }
        frontier[at] = last;
        return frontierSize;
    }
}
