package io.timeservice.core;

/**
 * {@link AosBulkHeap} called as {@code TimerQueues.OurHeap} calls the heap: config {@code heap4aos}. Benchmark-only.
 */
final class AosBulkQueue implements TimerQueueUnderTest {

    private final AosBulkHeap heap;
    private long sequence;

    AosBulkQueue(int arity) {
        heap = new AosBulkHeap(arity);
    }

    @Override
    public boolean add(String id, long fireTime, int priority) {
        if (heap.find(id) != AosBulkHeap.NONE) {
            return false;
        }
        heap.insert(id, fireTime, priority, ++sequence, 1, 0L, 0L, null);
        return true;
    }

    @Override
    public boolean cancel(String id) {
        int handle = heap.find(id);
        if (handle == AosBulkHeap.NONE) {
            return false;
        }
        heap.remove(handle);
        return true;
    }

    @Override
    public boolean edit(String id, long newFireTime, int newPriority) {
        int handle = heap.find(id);
        if (handle == AosBulkHeap.NONE) {
            return false;
        }
        heap.update(handle, newFireTime, newPriority);
        return true;
    }

    private String[] drained;
    private int drainedCount;
    private final AosBulkHeap.FiredTimers collector = this::collect;

    private void collect(int handle, long fireTime, int priority, long sequence, int levels) {
        drained[drainedCount++] = heap.idOf(handle);
    }

    @Override
    public int drain(long now, String[] into) {
        drained = into;
        drainedCount = 0;
        return heap.popDue(now, into.length, collector);
    }

    @Override
    public String pollDue(long now) {
        int root = heap.peek();
        if (root == AosBulkHeap.NONE || heap.fireTime(root) > now) {
            return null;
        }
        String id = heap.timerAt(root).id();
        heap.removeRoot();
        return id;
    }

    @Override
    public String peek() {
        int root = heap.peek();
        return root == AosBulkHeap.NONE ? null : heap.idOf(root);
    }

    @Override
    public long nextFireTime() {
        int root = heap.peek();
        return root == AosBulkHeap.NONE ? Long.MAX_VALUE : heap.fireTime(root);
    }

    @Override
    public String[] firstN(int limit) {
        throw new UnsupportedOperationException("heap4old is for the issue 20 operations only");
    }

    @Override
    public int size() {
        return heap.size();
    }

    @Override
    public String name() {
        return "heap" + heap.arity() + "aos";
    }
}
