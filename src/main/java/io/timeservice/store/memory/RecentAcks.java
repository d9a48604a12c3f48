package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The acknowledgements the queueing clocks of one registry remember, so that acking a claim again answers success:
 * the last {@link #MAX} over all clocks together, whatever the number of clocks (each clock used to keep its own
 * last 10,000 outside every budget, so a few hundred busy clocks could fill a heap). The oldest acknowledgement,
 * of whichever clock, is forgotten first; a repeated ack of a forgotten claim is {@code claim_lost}, which changes
 * nothing.
 *
 * <p>Memory: about 190 bytes per remembered ack plus its id's characters (one node, one linked map entry,
 * the claim string), so at most about 19 MB, and 32 MB with 128-character ids. Snapshots copy each clock's share.
 *
 * <p>Thread-safe: clocks call it under their own locks, so every method takes this object's monitor (and calls
 * nothing outside it). Each call is O(1); a clock's {@link Share#image} and {@link Share#clear} are O(its acks).
 * Recovery rebuilds each clock's acks in that clock's order, not the order across clocks the live service had, so
 * after a restart the forgetting order across clocks may differ; the bound holds regardless.
 */
final class RecentAcks {

    /** How many acknowledgements all clocks of a registry remember together. */
    static final int MAX = 100_000;

    private final int max;
    /** Sentinel of a ring of every remembered ack, oldest first. */
    private final Node ring = new Node(null, null, null);
    private int size;

    RecentAcks(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be >= 1: " + max);
        }
        this.max = max;
        ring.prev = ring;
        ring.next = ring;
    }

    /** A new clock's share: empty, and until it is cleared counted with all the others. */
    Share newShare() {
        return new Share();
    }

    /** Remembered acknowledgements over all clocks. */
    synchronized int size() {
        return size;
    }

    /** One remembered ack: in the ring of all clocks (by age) and in its clock's map (by claim). */
    private static final class Node {
        final String claim;
        final String id;
        final Share owner;
        Node prev;
        Node next;

        Node(String claim, String id, Share owner) {
            this.claim = claim;
            this.id = id;
            this.owner = owner;
        }
    }

    /** One clock's acknowledgements, in the order they were remembered. */
    final class Share {
        /** In the order remembered (oldest first), as the ring has them. */
        private final Map<String, Node> byClaim = new LinkedHashMap<>();

        private Share() {
        }

        /** Remembers that {@code claim} acknowledged a delivery of {@code id}, forgetting the oldest over the bound. */
        void remember(String claim, String id) {
            synchronized (RecentAcks.this) {
                Node old = byClaim.remove(claim);
                if (old != null) {
                    unlink(old);
                }
                Node node = new Node(claim, id, this);
                node.prev = ring.prev;
                node.next = ring;
                ring.prev.next = node;
                ring.prev = node;
                byClaim.put(claim, node);
                size++;
                if (size > max) {
                    Node oldest = ring.next;
                    oldest.owner.byClaim.remove(oldest.claim);
                    unlink(oldest);
                }
            }
        }

        /** Whether {@code claim} is remembered as having acknowledged a delivery of {@code id}. */
        boolean remembers(String claim, String id) {
            synchronized (RecentAcks.this) {
                Node node = byClaim.get(claim);
                return node != null && node.id.equals(id);
            }
        }

        /** This clock's remembered acknowledgements, oldest first, for a snapshot. */
        List<RecentAck> image() {
            synchronized (RecentAcks.this) {
                List<RecentAck> mine = new ArrayList<>(byClaim.size());
                for (Node node : byClaim.values()) {
                    mine.add(new RecentAck(node.claim, node.id));
                }
                return mine;
            }
        }

        /** Forgets this clock's acknowledgements (reset, clock deletion). */
        void clear() {
            synchronized (RecentAcks.this) {
                for (Node node : byClaim.values()) {
                    unlink(node);
                }
                byClaim.clear();
            }
        }

        int size() {
            synchronized (RecentAcks.this) {
                return byClaim.size();
            }
        }
    }

    /** Takes {@code node} out of the ring; call holding the monitor, after or before removing it from its map. */
    private void unlink(Node node) {
        node.prev.next = node.next;
        node.next.prev = node.prev;
        node.prev = null;
        node.next = null;
        size--;
    }
}
