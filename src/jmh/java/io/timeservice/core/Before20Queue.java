package io.timeservice.core;

/**
 * The heap as it was before issue 20 ({@link Before20Heap}), called as {@code TimerQueues.OurHeap} called it then:
 * benchmark config {@code heap4old}, for side-by-side runs against the current heap. Benchmark-only.
 */
final class Before20Queue implements TimerQueueUnderTest {

    private final Before20Heap heap;
    private long sequence;

    Before20Queue(int arity) {
        heap = new Before20Heap(arity);
    }

    @Override
    public boolean add(String id, long fireTime, int priority) {
        if (heap.find(id) != Before20Heap.NONE) {
            return false;
        }
        heap.insert(id, fireTime, priority, ++sequence, 1, 0L, 0L, null);
        return true;
    }

    @Override
    public boolean cancel(String id) {
        int handle = heap.find(id);
        if (handle == Before20Heap.NONE) {
            return false;
        }
        heap.remove(handle);
        return true;
    }

    @Override
    public boolean edit(String id, long newFireTime, int newPriority) {
        int handle = heap.find(id);
        if (handle == Before20Heap.NONE) {
            return false;
        }
        heap.update(handle, newFireTime, newPriority);
        return true;
    }

    @Override
    public String pollDue(long now) {
        int root = heap.peek();
        if (root == Before20Heap.NONE || heap.fireTime(root) > now) {
            return null;
        }
        String id = heap.timerAt(root).id();
        heap.removeRoot();
        return id;
    }

    @Override
    public String peek() {
        int root = heap.peek();
        return root == Before20Heap.NONE ? null : heap.timerAt(root).id();
    }

    @Override
    public long nextFireTime() {
        int root = heap.peek();
        return root == Before20Heap.NONE ? Long.MAX_VALUE : heap.fireTime(root);
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
        return "heap" + heap.arity() + "old";
    }
}
