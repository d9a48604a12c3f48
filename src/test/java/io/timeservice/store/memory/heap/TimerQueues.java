package io.timeservice.store.memory.heap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

import io.timeservice.model.FiringOrder;
import io.timeservice.model.Timer;

/**
 * The designs the benchmarks compare, behind {@link TimerQueueUnderTest}: our {@link IndexedTimerHeap} and the
 * straightforward alternatives built from the JDK's collections. Each alternative is written the way one would
 * write it for production, not as a strawman.
 */
final class TimerQueues {

    /** Names accepted by {@link #create}. */
    static final List<String> ALL = List.of("heap2", "heap4", "heap8", "treeMap", "pqTombstones", "pqRemove",
            "sortedArray");
    /**
     * Benchmark-only variants, not in {@link #ALL}: heap4 and heap8 with the id index's maximum load named
     * (50%: doubling, power-of-two lengths; 75%: growing by half, any length) whatever the default is.
     */
    static final List<String> VARIANTS = List.of("heap4load50", "heap4load75", "heap8load50", "heap8load75");

    private TimerQueues() {
    }

    static TimerQueueUnderTest create(String name) {
        return switch (name) {
            case "heap2" -> new OurHeap(2);
            case "heap4" -> new OurHeap(4);
            case "heap8" -> new OurHeap(8);
            case "heap4load50" -> new OurHeap(4, 50);
            case "heap4load75" -> new OurHeap(4, 75);
            case "heap8load50" -> new OurHeap(8, 50);
            case "heap8load75" -> new OurHeap(8, 75);
            case "treeMap" -> new TreeMapQueue();
            case "pqTombstones" -> new TombstonePriorityQueue();
            case "pqRemove" -> new RemovingPriorityQueue();
            case "sortedArray" -> new SortedArrayQueue();
            default -> throw new IllegalArgumentException("unknown queue design: " + name);
        };
    }

    /** The service's own heap, used exactly as {@code MemoryClock} uses it, minus the lock and the metrics. */
    static final class OurHeap implements TimerQueueUnderTest {
        final IndexedTimerHeap heap;
        private long sequence;
        private final IndexedTimerHeap.FiredTimers collector = this::collect;
        private String[] drained;
        private int drainedCount;

        private final String name;

        OurHeap(int arity) {
            heap = new IndexedTimerHeap(arity);
            name = "heap" + arity;
        }

        /** With the id index grown past {@code indexMaxLoadPercent} of its buckets instead of the default. */
        OurHeap(int arity, int indexMaxLoadPercent) {
            heap = new IndexedTimerHeap(arity, indexMaxLoadPercent);
            name = "heap" + arity + "load" + indexMaxLoadPercent;
        }


        @Override
        public boolean add(String id, long fireTime, int priority) {
            if (heap.find(id) != IndexedTimerHeap.NONE) {
                return false;
            }
            heap.insert(id, fireTime, priority, ++sequence, 1, 0L, 0L, null);
            return true;
        }

        @Override
        public boolean cancel(String id) {
            int handle = heap.find(id);
            if (handle == IndexedTimerHeap.NONE) {
                return false;
            }
            heap.remove(handle);
            return true;
        }

        @Override
        public boolean edit(String id, long newFireTime, int newPriority) {
            int handle = heap.find(id);
            if (handle == IndexedTimerHeap.NONE) {
                return false;
            }
            heap.update(handle, newFireTime, newPriority);
            return true;
        }

        @Override
        public String pollDue(long now) {
            int root = heap.peek();
            if (root == IndexedTimerHeap.NONE || heap.fireTime(root) > now) {
                return null;
            }
            String id = heap.timerAt(root).id();
            heap.removeRoot();
            return id;
        }

        /** As {@code MemoryClock}'s advance fires: one {@link IndexedTimerHeap#popDue} call. */
        @Override
        public int drain(long now, String[] into) {
            drained = into;
            drainedCount = 0;
            return heap.popDue(now, into.length, collector);
        }

        private void collect(int handle, long fireTime, int priority, long sequence, int levelsMoved) {
            drained[drainedCount++] = heap.idOf(handle);
        }

        /**
         * The root's id, as the other designs answer: two loads. {@code MemoryClock.peek} also builds a {@link Timer}
         * from the root's record (an allocation and a few loads more).
         */
        @Override
        public String peek() {
            int root = heap.peek();
            return root == IndexedTimerHeap.NONE ? null : heap.idOf(root);
        }

        @Override
        public long nextFireTime() {
            int root = heap.peek();
            return root == IndexedTimerHeap.NONE ? Long.MAX_VALUE : heap.fireTime(root);
        }

        @Override
        public String[] firstN(int limit) {
            int[] handles = FiringOrderWalk.firstInOrder(heap, limit);
            String[] ids = new String[handles.length];
            for (int i = 0; i < handles.length; i++) {
                ids[i] = heap.timerAt(handles[i]).id();
            }
            return ids;
        }

        @Override
        public int size() {
            return heap.size();
        }

        @Override
        public String name() {
            return name;
        }
    }

    /** A firing-order key for the sorted-map design. */
    record Key(long fireTime, int priority, long sequence) implements Comparable<Key> {
        @Override
        public int compareTo(Key other) {
            return FiringOrder.compare(fireTime, priority, sequence, other.fireTime, other.priority, other.sequence);
        }
    }

    /** A {@code TreeMap} keyed by firing order plus a {@code HashMap} from id to key: O(log n) everything. */
    static final class TreeMapQueue implements TimerQueueUnderTest {
        private final TreeMap<Key, String> byOrder = new TreeMap<>();
        private final HashMap<String, Key> byId = new HashMap<>();
        private long sequence;

        @Override
        public boolean add(String id, long fireTime, int priority) {
            Key key = new Key(fireTime, priority, sequence + 1);
            if (byId.putIfAbsent(id, key) != null) {
                return false;
            }
            sequence++;
            byOrder.put(key, id);
            return true;
        }

        @Override
        public boolean cancel(String id) {
            Key key = byId.remove(id);
            if (key == null) {
                return false;
            }
            byOrder.remove(key);
            return true;
        }

        @Override
        public boolean edit(String id, long newFireTime, int newPriority) {
            Key old = byId.get(id);
            if (old == null) {
                return false;
            }
            Key key = new Key(newFireTime, newPriority, old.sequence());
            byOrder.remove(old);
            byOrder.put(key, id);
            byId.put(id, key);
            return true;
        }

        @Override
        public String pollDue(long now) {
            if (byOrder.isEmpty() || byOrder.firstKey().fireTime() > now) {
                return null;
            }
            String id = byOrder.pollFirstEntry().getValue();
            byId.remove(id);
            return id;
        }

        @Override
        public String peek() {
            return byOrder.isEmpty() ? null : byOrder.firstEntry().getValue();
        }

        @Override
        public long nextFireTime() {
            return byOrder.isEmpty() ? Long.MAX_VALUE : byOrder.firstKey().fireTime();
        }

        @Override
        public String[] firstN(int limit) {
            String[] ids = new String[Math.min(limit, byOrder.size())];
            int i = 0;
            for (String id : byOrder.values()) {
                if (i == ids.length) {
                    break;
                }
                ids[i++] = id;
            }
            return ids;
        }

        @Override
        public int size() {
            return byId.size();
        }

        @Override
        public String name() {
            return "treeMap";
        }
    }

    /** A mutable queue entry for the priority-queue and sorted-array designs; identity equality. */
    static final class Entry implements Comparable<Entry> {
        final String id;
        long fireTime;
        int priority;
        final long sequence;
        boolean cancelled;

        Entry(String id, long fireTime, int priority, long sequence) {
            this.id = id;
            this.fireTime = fireTime;
            this.priority = priority;
            this.sequence = sequence;
        }

        @Override
        public int compareTo(Entry other) {
            return FiringOrder.compare(fireTime, priority, sequence, other.fireTime, other.priority, other.sequence);
        }
    }

    /**
     * {@code java.util.PriorityQueue} with lazy deletion: cancel marks the entry and forgets its id, edit marks the
     * old entry and adds a new one; firing and peeking skip marked entries at the top. When marked entries outnumber
     * live ones, one O(n) {@code removeIf} sweeps them out, so the queue stays below twice the live size and the
     * sweep costs O(1) amortised per cancel or edit.
     */
    static final class TombstonePriorityQueue implements TimerQueueUnderTest {
        private final PriorityQueue<Entry> queue = new PriorityQueue<>();
        private final HashMap<String, Entry> live = new HashMap<>();
        private int tombstones;
        private long sequence;

        @Override
        public boolean add(String id, long fireTime, int priority) {
            Entry entry = new Entry(id, fireTime, priority, sequence + 1);
            if (live.putIfAbsent(id, entry) != null) {
                return false;
            }
            sequence++;
            queue.add(entry);
            return true;
        }

        @Override
        public boolean cancel(String id) {
            Entry entry = live.remove(id);
            if (entry == null) {
                return false;
            }
            bury(entry);
            return true;
        }

        @Override
        public boolean edit(String id, long newFireTime, int newPriority) {
            Entry old = live.get(id);
            if (old == null) {
                return false;
            }
            Entry entry = new Entry(id, newFireTime, newPriority, old.sequence);
            live.put(id, entry);
            queue.add(entry);
            bury(old);
            return true;
        }

        @Override
        public String pollDue(long now) {
            Entry top = liveTop();
            if (top == null || top.fireTime > now) {
                return null;
            }
            queue.poll();
            live.remove(top.id);
            return top.id;
        }

        @Override
        public String peek() {
            Entry top = liveTop();
            return top == null ? null : top.id;
        }

        @Override
        public long nextFireTime() {
            Entry top = liveTop();
            return top == null ? Long.MAX_VALUE : top.fireTime;
        }

        @Override
        public String[] firstN(int limit) {
            List<Entry> taken = new ArrayList<>(Math.min(limit, live.size()));
            while (taken.size() < limit && liveTop() != null) {
                taken.add(queue.poll());
            }
            String[] ids = new String[taken.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = taken.get(i).id;
            }
            queue.addAll(taken);
            return ids;
        }

        @Override
        public int size() {
            return live.size();
        }

        @Override
        public String name() {
            return "pqTombstones";
        }

        /** Queue length including tombstones: for tests. */
        int queueLength() {
            return queue.size();
        }

        private void bury(Entry entry) {
            entry.cancelled = true;
            if (++tombstones > live.size()) {
                queue.removeIf(e -> e.cancelled);
                tombstones = 0;
            }
        }

        /** Drops cancelled entries from the top; returns the live top or null. */
        private Entry liveTop() {
            Entry top;
            while ((top = queue.peek()) != null && top.cancelled) {
                queue.poll();
                tombstones--;
            }
            return top;
        }
    }

    /** {@code java.util.PriorityQueue} with eager {@code remove(Object)}: O(n) cancel and edit. Small n only. */
    static final class RemovingPriorityQueue implements TimerQueueUnderTest {
        private final PriorityQueue<Entry> queue = new PriorityQueue<>();
        private final HashMap<String, Entry> byId = new HashMap<>();
        private long sequence;

        @Override
        public boolean add(String id, long fireTime, int priority) {
            Entry entry = new Entry(id, fireTime, priority, sequence + 1);
            if (byId.putIfAbsent(id, entry) != null) {
                return false;
            }
            sequence++;
            queue.add(entry);
            return true;
        }

        @Override
        public boolean cancel(String id) {
            Entry entry = byId.remove(id);
            if (entry == null) {
                return false;
            }
            queue.remove(entry);
            return true;
        }

        @Override
        public boolean edit(String id, long newFireTime, int newPriority) {
            Entry entry = byId.get(id);
            if (entry == null) {
                return false;
            }
            queue.remove(entry);
            entry.fireTime = newFireTime;
            entry.priority = newPriority;
            queue.add(entry);
            return true;
        }

        @Override
        public String pollDue(long now) {
            Entry top = queue.peek();
            if (top == null || top.fireTime > now) {
                return null;
            }
            queue.poll();
            byId.remove(top.id);
            return top.id;
        }

        @Override
        public String peek() {
            Entry top = queue.peek();
            return top == null ? null : top.id;
        }

        @Override
        public long nextFireTime() {
            Entry top = queue.peek();
            return top == null ? Long.MAX_VALUE : top.fireTime;
        }

        @Override
        public String[] firstN(int limit) {
            List<Entry> taken = new ArrayList<>(Math.min(limit, queue.size()));
            while (taken.size() < limit && !queue.isEmpty()) {
                taken.add(queue.poll());
            }
            String[] ids = new String[taken.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = taken.get(i).id;
            }
            queue.addAll(taken);
            return ids;
        }

        @Override
        public int size() {
            return byId.size();
        }

        @Override
        public String name() {
            return "pqRemove";
        }
    }

    /**
     * An {@code ArrayList} kept sorted in reverse firing order (the next timer is last, so firing removes from the
     * end), found by binary search, plus a {@code HashMap} from id to entry. Insert, cancel and edit shift O(n)
     * references with one {@code arraycopy}. Small n only.
     */
    static final class SortedArrayQueue implements TimerQueueUnderTest {
        private static final Comparator<Entry> LATEST_FIRST = Comparator.reverseOrder();
        private final ArrayList<Entry> entries = new ArrayList<>();
        private final HashMap<String, Entry> byId = new HashMap<>();
        private long sequence;

        @Override
        public boolean add(String id, long fireTime, int priority) {
            Entry entry = new Entry(id, fireTime, priority, sequence + 1);
            if (byId.putIfAbsent(id, entry) != null) {
                return false;
            }
            sequence++;
            insert(entry);
            return true;
        }

        @Override
        public boolean cancel(String id) {
            Entry entry = byId.remove(id);
            if (entry == null) {
                return false;
            }
            entries.remove(indexOf(entry));
            return true;
        }

        @Override
        public boolean edit(String id, long newFireTime, int newPriority) {
            Entry entry = byId.get(id);
            if (entry == null) {
                return false;
            }
            entries.remove(indexOf(entry));
            entry.fireTime = newFireTime;
            entry.priority = newPriority;
            insert(entry);
            return true;
        }

        @Override
        public String pollDue(long now) {
            if (entries.isEmpty() || last().fireTime > now) {
                return null;
            }
            Entry top = entries.remove(entries.size() - 1);
            byId.remove(top.id);
            return top.id;
        }

        @Override
        public String peek() {
            return entries.isEmpty() ? null : last().id;
        }

        @Override
        public long nextFireTime() {
            return entries.isEmpty() ? Long.MAX_VALUE : last().fireTime;
        }

        @Override
        public String[] firstN(int limit) {
            String[] ids = new String[Math.min(limit, entries.size())];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = entries.get(entries.size() - 1 - i).id;
            }
            return ids;
        }

        @Override
        public int size() {
            return entries.size();
        }

        @Override
        public String name() {
            return "sortedArray";
        }

        private Entry last() {
            return entries.get(entries.size() - 1);
        }

        private void insert(Entry entry) {
            int found = Collections.binarySearch(entries, entry, LATEST_FIRST);
            entries.add(-found - 1, entry); // keys are unique, so found is always an insertion point
        }

        private int indexOf(Entry entry) {
            return Collections.binarySearch(entries, entry, LATEST_FIRST);
        }
    }
}
