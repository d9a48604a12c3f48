package io.timeservice.store.memory;

import java.util.Iterator;
import java.util.TreeSet;

/**
 * One key's state in a {@link FlowReady}: its ready deliveries in the ready order, its limits and in-flight count,
 * and where it stands in the ring ({@link FlowRing}), among the keys waiting for a token and in the heap of keys by
 * their oldest ready delivery ({@link OldestKeys}). Its fields belong to those classes; not thread-safe, as they are.
 */
final class FlowKey {

    final String key;
    final TreeSet<DeliveryQueue.Entry> ready = new TreeSet<>(DeliveryQueue.READY_ORDER);
    /** Its bucket, or null without a rate; replaced when its override changes. */
    TokenBucket bucket;
    /** Its concurrency, {@link Integer#MAX_VALUE} for none; changed with its override. */
    int concurrency;
    int inFlight;
    /** Its place in the ring ({@link FlowRing}), or -1 when it is not there. */
    long ticket = -1;
    /** When it leaves the keys waiting for a token, or {@link Long#MIN_VALUE} when it is not there. */
    long waitUntil = Long.MIN_VALUE;
    /** What this key adds to the held-back count: its ready count while it is held, else 0. */
    int heldCounted;
    /** Its index in {@link OldestKeys}, or -1 when it has nothing ready. */
    int heapIndex = -1;
    /** When its oldest ready delivery became ready, while it is in {@link OldestKeys}. */
    long oldestReadyAt;
    // a plan's scratch, reset before the plan returns
    int planned;
    Iterator<DeliveryQueue.Entry> cursor;

    FlowKey(String key, int concurrency, TokenBucket bucket) {
        this.key = key;
        this.concurrency = concurrency;
        this.bucket = bucket;
    }
}
