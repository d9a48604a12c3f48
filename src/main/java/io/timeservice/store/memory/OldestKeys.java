package io.timeservice.store.memory;

import java.util.Arrays;

/**
 * The keys of a {@link FlowReady} that hold a ready delivery, in a binary min-heap by when their oldest one became
 * ready ({@link FlowKey#oldestReadyAt}): the clock's longest-ready delivery is the oldest of the keys' firsts, so no
 * set of every ready delivery is kept beside the keys' own. A key moves only when its oldest time changes (a claim
 * that leaves an equally old delivery first costs one comparison). O(log k) per move for k keys, no allocation. Not
 * thread-safe: its clock's lock guards it.
 */
final class OldestKeys {

    private FlowKey[] heap = new FlowKey[16];
    private int size;

    /** When the longest-ready delivery of any key became ready, or {@link Long#MAX_VALUE} when none is ready. */
    long oldestReadyAt() {
        return size == 0 ? Long.MAX_VALUE : heap[0].oldestReadyAt;
    }

    /** Takes {@code key}'s ready deliveries as they are now: it joins, moves or leaves. */
    void update(FlowKey key) {
        if (key.ready.isEmpty()) {
            if (key.heapIndex >= 0) {
                remove(key);
            }
            return;
        }
        long oldest = key.ready.first().readyAt;
        if (key.heapIndex < 0) {
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size * 2);
            }
            key.oldestReadyAt = oldest;
            key.heapIndex = size;
            heap[size++] = key;
            up(key.heapIndex);
        } else if (oldest != key.oldestReadyAt) {
            boolean earlier = oldest < key.oldestReadyAt;
            key.oldestReadyAt = oldest;
            if (earlier) {
                up(key.heapIndex);
            } else {
                down(key.heapIndex);
            }
        }
    }

    private void remove(FlowKey key) {
        int at = key.heapIndex;
        key.heapIndex = -1;
        FlowKey last = heap[--size];
        heap[size] = null;
        if (at < size) {
            put(at, last);
            up(at);
            down(last.heapIndex);
        }
    }

    private void up(int at) {
        FlowKey key = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (heap[parent].oldestReadyAt <= key.oldestReadyAt) {
                break;
            }
            put(at, heap[parent]);
            at = parent;
        }
        put(at, key);
    }

    private void down(int at) {
        FlowKey key = heap[at];
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1].oldestReadyAt < heap[child].oldestReadyAt) {
                child++;
            }
            if (key.oldestReadyAt <= heap[child].oldestReadyAt) {
                break;
            }
            put(at, heap[child]);
            at = child;
        }
        put(at, key);
    }

    private void put(int at, FlowKey key) {
        heap[at] = key;
        key.heapIndex = at;
    }
}
