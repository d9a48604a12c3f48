package io.timeservice.store.memory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeSet;

import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowRate;

/**
 * The ready deliveries of a clock under flow control ({@link FlowLimits}): one ready queue per key, in the clock's
 * ready order (longest-ready first, then firing order), and a ring of the keys that may hand one out. A claim takes
 * round robin over the ring: the first key gives its first delivery and goes to the back, so a key with a million
 * ready deliveries takes one turn as a key with one does. A key leaves the ring while it has nothing ready, while it
 * has as many in flight as its concurrency (it comes back when one of them is acked, nacked, dead or its lease ends),
 * and while its token bucket is empty (it waits in {@code refilling} by the time its next token is there). The
 * clock's own concurrency and bucket bound every claim as a whole. A key's limits are its override's where it has one
 * ({@link FlowLimits#keys}), else the clock's per-key ones; {@link #retune} applies a changed override. A held-back
 * delivery stays in its key's queue, in its place: nothing is lost or reordered within a key.
 *
 * <p>Cost (k keys, n ready): adding a ready delivery O(log n + log k), releasing a slot O(1) amortized; a claim of m
 * deliveries O(m log n) for the keys' own queues, O(m) for the ring ({@link FlowRing}) and O(log k) for each key whose
 * oldest ready time changes ({@link OldestKeys}), plus O(log k) for each key it finds out of tokens, which then
 * leaves the ring; no claim scans the keys. No set of every ready delivery is kept: the clock's oldest is the oldest
 * of the keys' firsts. {@link #plan} looks without changing what it hands out, so the caller can record the
 * choice before {@link #take} applies it.
 *
 * <p>Not thread-safe: its clock's lock guards it, as it does the {@link DeliveryQueue} that owns it.
 */
final class FlowReady {

    /** The empty key: every delivery without one. */
    static final String NO_KEY = "";

    /** Changed only by {@link #retune}, which changes one key's override. */
    private FlowLimits limits;
    private final Map<String, FlowKey> keys = new HashMap<>();
    /** The keys that may hand out a delivery, in turn order: the first is next. */
    private final FlowRing ring = new FlowRing();
    /** The keys with something ready and room in flight but no token, by when their next token is there. */
    private final TreeSet<FlowKey> refilling = new TreeSet<>(Comparator.<FlowKey>comparingLong(k -> k.waitUntil)
            .thenComparing(k -> k.key));
    /** The keys with something ready, by their oldest. */
    private final OldestKeys oldest = new OldestKeys();
    /** Every ready delivery by sequence (a recorded claim names them so). */
    private final Map<Long, DeliveryQueue.Entry> bySequence = new HashMap<>();
    private TokenBucket clockBucket;
    private int inFlight;
    /** Ready deliveries of keys that may not hand one out now (at their concurrency or out of tokens). */
    private int heldBack;
    /** Keys with something ready that may not hand it out now. */
    private int keysAtLimit;
    /**
     * Times a key with something ready was found without a token (it then waits for one), and claims cut short by the
     * clock's bucket, since the last {@link #takeDenied}.
     */
    private int tokensDenied;

    FlowReady(FlowLimits limits) {
        this.limits = limits;
        this.clockBucket = limits.clockRate() == null ? null
                : new TokenBucket(limits.clockRate(), limits.clockRate().limit());
    }

    FlowLimits limits() {
        return limits;
    }

    static String keyOf(DeliveryQueue.Entry entry) {
        String key = entry.timer.key();
        return key == null ? NO_KEY : key;
    }

    int readyCount() {
        return bySequence.size();
    }

    /** The ready deliveries in the ready order: O(n log k), the keys' queues merged. */
    List<DeliveryQueue.Entry> entries() {
        List<DeliveryQueue.Entry> entries = new ArrayList<>(bySequence.size());
        for (FlowKey k : keys.values()) {
            entries.addAll(k.ready);
        }
        entries.sort(DeliveryQueue.READY_ORDER); // runs of sorted keys: a merge
        return entries;
    }

    /** The ready deliveries in no order, O(1). */
    Collection<DeliveryQueue.Entry> unordered() {
        return Collections.unmodifiableCollection(bySequence.values());
    }

    /** When the longest-ready delivery became ready, or {@link Long#MAX_VALUE}. */
    long oldestReadyAt() {
        return oldest.oldestReadyAt();
    }

    /** The ready delivery of {@code sequence}, or null. */
    DeliveryQueue.Entry ready(long sequence) {
        return bySequence.get(sequence);
    }

    /** A delivery became ready (fired, retried, redriven, restored); its key joins the ring if it may hand it out. */
    void add(DeliveryQueue.Entry entry) {
        FlowKey k = key(keyOf(entry));
        k.ready.add(entry);
        oldest.update(k);
        bySequence.put(entry.timer.sequence(), entry);
        place(k, Long.MIN_VALUE);
    }

    /** A delivery of this clock is in flight (a restored lease): it holds a slot of its key and of the clock. */
    void holding(DeliveryQueue.Entry entry) {
        FlowKey k = key(keyOf(entry));
        k.inFlight++;
        inFlight++;
        place(k, Long.MIN_VALUE);
    }

    /** An in-flight delivery's lease ended (ack, nack, reject, expiry): its slot is free again. */
    void released(DeliveryQueue.Entry entry) {
        FlowKey k = keys.get(keyOf(entry));
        k.inFlight--;
        inFlight--;
        place(k, Long.MIN_VALUE);
    }

    /**
     * The deliveries a claim of at most {@code max} at {@code now} takes, in the order it takes them: round robin over
     * the ring from its first key, each key giving its deliveries in its own order while it has room in flight and
     * tokens, all within the clock's room and tokens. Changes nothing it hands out: keys found out of tokens move from
     * the ring to {@code refilling} and keys whose token time came move back, which no claim can tell apart.
     */
    List<DeliveryQueue.Entry> plan(long now, int max) {
        while (!refilling.isEmpty() && refilling.first().waitUntil <= now) {
            FlowKey k = refilling.pollFirst();
            k.waitUntil = Long.MIN_VALUE;
            place(k, now);
        }
        long room = max;
        if (limits.clockConcurrency() != null) {
            room = Math.min(room, limits.clockConcurrency() - inFlight);
        }
        if (clockBucket != null) {
            long clockTokens = clockBucket.tokensAt(now);
            if (clockTokens < room && !ring.isEmpty()) {
                tokensDenied++;
            }
            room = Math.min(room, clockTokens);
        }
        List<DeliveryQueue.Entry> planned = new ArrayList<>((int) Math.max(0, Math.min(room, 64)));
        List<FlowKey> touched = new ArrayList<>();
        List<FlowKey> empty = new ArrayList<>();
        FlowRing.Turns turns = ring.turns();
        ArrayDeque<FlowKey> again = new ArrayDeque<>();
        while (planned.size() < room) {
            FlowKey k = turns.hasNext() ? turns.next() : again.pollFirst();
            if (k == null) {
                break;
            }
            long available = available(k, now);
            if (available == 0) {
                empty.add(k);
                continue;
            }
            if (k.planned == 0) { // most keys give one: no iterator for them
                touched.add(k);
                planned.add(k.ready.first());
            } else {
                if (k.cursor == null) {
                    k.cursor = k.ready.iterator();
                    k.cursor.next();
                }
                planned.add(k.cursor.next());
            }
            k.planned++;
            if (k.planned < available) {
                again.addLast(k);
            }
        }
        for (FlowKey k : touched) {
            k.planned = 0;
            k.cursor = null;
        }
        for (FlowKey k : empty) {
            ring.remove(k);
            place(k, now);
        }
        return planned;
    }

    /** Hands out {@code entry}, the first ready delivery of its key, at {@code now}: it leaves, its key's turn ends. */
    void take(DeliveryQueue.Entry entry, long now) {
        FlowKey k = keys.get(keyOf(entry));
        if (k == null || k.ready.isEmpty() || k.ready.first() != entry) {
            throw new IllegalStateException("delivery " + entry.timer.sequence() + " is not the first ready of its"
                    + " key");
        }
        k.ready.pollFirst();
        oldest.update(k);
        bySequence.remove(entry.timer.sequence());
        k.inFlight++;
        inFlight++;
        if (k.bucket != null) {
            k.bucket.take(now);
        }
        if (clockBucket != null) {
            clockBucket.take(now);
        }
        if (k.ticket >= 0) {
            ring.remove(k);
        }
        place(k, now);
    }

    /** How many {@code k} may hand out at {@code now}: ready, within its concurrency and its tokens. */
    private long available(FlowKey k, long now) {
        long available = Math.min(k.ready.size(), (long) k.concurrency - k.inFlight);
        if (k.bucket != null) {
            available = Math.min(available, k.bucket.tokensAt(now));
        }
        return Math.max(0, available);
    }

    /**
     * Puts {@code k} where its state says: in the ring (keeping its turn) when it may hand out a delivery, in
     * {@code refilling} when only a token is missing (known only with a real {@code now}; with
     * {@link Long#MIN_VALUE} the next plan finds out), nowhere otherwise; forgotten when it holds nothing a new key
     * would not.
     */
    private void place(FlowKey k, long now) {
        placeOnly(k, now);
        int held = k.ticket < 0 ? k.ready.size() : 0;
        if ((held > 0) != (k.heldCounted > 0)) {
            keysAtLimit += held > 0 ? 1 : -1;
        }
        heldBack += held - k.heldCounted;
        k.heldCounted = held;
    }

    private void placeOnly(FlowKey k, long now) {
        boolean room = k.inFlight < k.concurrency;
        if (k.ready.isEmpty() || !room) {
            leaveRing(k);
            leaveRefilling(k);
            if (k.ready.isEmpty() && k.inFlight == 0 && (k.bucket == null
                    || now != Long.MIN_VALUE && k.bucket.fullAt(now))) {
                keys.remove(k.key);
            }
            return;
        }
        if (k.waitUntil != Long.MIN_VALUE) {
            return;
        }
        if (now != Long.MIN_VALUE && k.bucket != null && k.bucket.tokensAt(now) == 0) {
            leaveRing(k);
            k.waitUntil = k.bucket.nextTokenAt(now);
            refilling.add(k);
            tokensDenied++;
            return;
        }
        if (k.ticket < 0) {
            ring.add(k);
        }
    }

    private void leaveRing(FlowKey k) {
        if (k.ticket >= 0) {
            ring.remove(k);
        }
    }

    private void leaveRefilling(FlowKey k) {
        if (k.waitUntil != Long.MIN_VALUE) {
            refilling.remove(k);
            k.waitUntil = Long.MIN_VALUE;
        }
    }

    private FlowKey key(String key) {
        return keys.computeIfAbsent(key, name -> new FlowKey(name, concurrencyOf(name), bucketOf(name)));
    }

    private int concurrencyOf(String key) {
        Integer concurrency = limits.concurrencyOf(key);
        return concurrency == null ? Integer.MAX_VALUE : concurrency;
    }

    /** A full bucket at {@code key}'s rate, or null without one. */
    private TokenBucket bucketOf(String key) {
        FlowRate rate = limits.rateOf(key);
        return rate == null ? null : new TokenBucket(rate, limits.burstOf(key));
    }

    /**
     * Takes {@code next}, which differs from the limits held only in {@code key}'s override, at {@code now}: the key's
     * concurrency changes (a key over its new one keeps what it has in flight and waits until it is under it), and
     * its bucket takes the new rate keeping the whole tokens it holds (at most the new size). O(log k + log n).
     */
    void retune(FlowLimits next, String key, long now) {
        limits = next;
        FlowKey k = keys.get(key);
        if (k == null) {
            return; // made with the new limits when it next has something
        }
        k.concurrency = concurrencyOf(key);
        FlowRate rate = next.rateOf(key);
        k.bucket = rate == null ? null : k.bucket == null ? new TokenBucket(rate, next.burstOf(key))
                : k.bucket.retuned(rate, next.burstOf(key), now);
        leaveRefilling(k); // its token time was worked out at the old rate
        place(k, now);
    }

    /**
     * Takes {@code next}, which differs from the limits held only in the clock's own concurrency and rate, at
     * {@code now}: a lowered concurrency lets what is in flight finish; the clock's bucket takes the new rate keeping
     * the whole tokens it holds (at most the new size), or starts full when the clock had no rate. O(1).
     */
    void retuneClock(FlowLimits next, long now) {
        limits = next;
        FlowRate rate = next.clockRate();
        clockBucket = rate == null ? null : clockBucket == null ? new TokenBucket(rate, rate.limit())
                : clockBucket.retuned(rate, rate.limit(), now);
    }

    /**
     * The {@code n} keys holding the most deliveries (ready and in flight; ties by key), most first, with the limits
     * that apply to them at {@code now}. O(k log n) for k keys: one pass over the keys with a heap of n.
     */
    List<FlowKeyState> busiest(int n, long now) {
        Comparator<FlowKey> lighterFirst = Comparator.<FlowKey>comparingLong(k -> (long) k.ready.size() + k.inFlight)
                .thenComparing(k -> k.key, Comparator.reverseOrder());
        PriorityQueue<FlowKey> heaviest = new PriorityQueue<>(lighterFirst);
        for (FlowKey k : keys.values()) {
            if (k.ready.isEmpty() && k.inFlight == 0) {
                continue; // only its bucket is remembered
            }
            heaviest.add(k);
            if (heaviest.size() > n) {
                heaviest.poll();
            }
        }
        List<FlowKeyState> states = new ArrayList<>(heaviest.size());
        while (!heaviest.isEmpty()) {
            FlowKey k = heaviest.poll();
            states.add(new FlowKeyState(k.key, k.ready.size(), k.inFlight, k.heldCounted,
                    k.concurrency == Integer.MAX_VALUE ? null : k.concurrency, limits.rateOf(k.key),
                    k.bucket == null ? null : k.bucket.tokensAt(now), limits.keys().get(k.key)));
        }
        Collections.reverse(states);
        return states;
    }

    /** Ready deliveries held back by their key's limits. */
    int heldBack() {
        return heldBack;
    }

    /** Keys with ready deliveries held back by their limits. */
    int keysAtLimit() {
        return keysAtLimit;
    }

    /** The tokens denied since the last call, which starts the count again. */
    int takeDenied() {
        int denied = tokensDenied;
        tokensDenied = 0;
        return denied;
    }
}
