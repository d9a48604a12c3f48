package io.timeservice.store.memory.heap;

import java.util.Arrays;
import java.util.PriorityQueue;

import io.timeservice.model.FiringPosition;

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
     * A page of the firing order: the handles of the first {@code limit} timers after {@code after} (null: from the
     * first) whose id starts with {@code idPrefix} (null: any id), in firing order.
     *
     * <p>Without a prefix, the timers at or before the position are walked in any order, one comparison each (no
     * child comes before its parent, so everything after the position hangs in subtrees below them), then the first
     * {@code limit} after it best-first from those subtrees' roots: O(p * d + limit * d * log(p * d)) for a page at
     * position p. With a prefix every timer is looked at and the first {@code limit} that match are kept: O(n log
     * limit), no copy of the heap.
     */
    public static int[] page(IndexedTimerHeap heap, FiringPosition after, String idPrefix, int limit) {
        int size = heap.size();
        if (size == 0 || limit <= 0) {
            return new int[0];
        }
        if (idPrefix != null) {
            return matching(heap, after, idPrefix, limit);
        }
        int arity = heap.arity();
        int[] roots = new int[16];
        int rootCount = 0;
        if (after == null) {
            roots[rootCount++] = 0;
        } else {
            int[] stack = new int[16];
            int depth = 0;
            stack[depth++] = 0;
            while (depth > 0) {
                int slot = stack[--depth];
                if (isAfter(heap, slot, after)) {
                    roots = ensure(roots, rootCount + 1);
                    roots[rootCount++] = slot;
                    continue;
                }
                int first = slot * arity + 1;
                for (int child = first; child < first + arity && child < size; child++) {
                    stack = ensure(stack, depth + 1);
                    stack[depth++] = child;
                }
            }
        }
        int[] frontier = new int[(int) Math.min(size, rootCount + (long) limit * arity)];
        int frontierSize = 0;
        for (int i = 0; i < rootCount; i++) {
            frontierSize = pushFrontier(heap, frontier, frontierSize, roots[i]);
        }
        int[] result = new int[Math.min(limit, size)];
        int count = 0;
        while (count < result.length && frontierSize > 0) {
            int slot = frontier[0];
            result[count++] = heap.handleAt(slot);
            frontierSize = popFrontier(heap, frontier, frontierSize);
            int first = slot * arity + 1;
            for (int child = first; child < first + arity && child < size; child++) {
                frontierSize = pushFrontier(heap, frontier, frontierSize, child);
            }
        }
        return count == result.length ? result : Arrays.copyOf(result, count);
    }

    private static int[] matching(IndexedTimerHeap heap, FiringPosition after, String idPrefix, int limit) {
        // the limit earliest matching slots, the latest of them on top
        PriorityQueue<Integer> kept = new PriorityQueue<>(Math.min(limit, 1024) + 1,
                (a, b) -> heap.compareSlots(b, a));
        TimerRecords records = heap.records();
        for (int slot = 0; slot < heap.size(); slot++) {
            if ((after == null || isAfter(heap, slot, after))
                    && records.idOf(heap.handleAt(slot)).startsWith(idPrefix)) {
                kept.add(slot);
                if (kept.size() > limit) {
                    kept.poll();
                }
            }
        }
        int[] result = new int[kept.size()];
        for (int i = result.length - 1; i >= 0; i--) {
            result[i] = heap.handleAt(kept.poll());
        }
        return result;
    }

    private static boolean isAfter(IndexedTimerHeap heap, int slot, FiringPosition after) {
        return after.isBefore(heap.fireTimeAt(slot), heap.priorityAt(slot), heap.sequenceAt(slot));
    }

    private static int[] ensure(int[] array, int needed) {
        return needed <= array.length ? array : Arrays.copyOf(array, Math.max(needed, array.length * 2));
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
