package io.timeservice.store.memory;

import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * The ring of a {@link FlowReady}: the keys that may hand out a delivery, in turn order, the first next. A key joins at
 * the back with a new ticket (a number that only grows) and leaves by forgetting its ticket; its slot stays behind,
 * stale, until the front passes it or the ring is compacted (when stale slots outnumber live ones). So joining and
 * leaving cost O(1) amortized, where a tree by ticket costs O(log k) and a node each, and the order is the tree's:
 * by ticket. Not thread-safe: its clock's lock guards it.
 */
final class FlowRing {

    private FlowKey[] keys = new FlowKey[16];
    private long[] tickets = new long[16];
    /** The slots in use are {@code head}, {@code head + 1}, ... {@code head + slots - 1}, modulo the length. */
    private int head;
    private int slots;
    private int live;
    private long nextTicket;

    boolean isEmpty() {
        return live == 0;
    }

    /** Puts {@code key}, which is not in the ring, at its back. */
    void add(FlowKey key) {
        if (slots == keys.length) {
            resize(live * 2 + 16 > keys.length ? keys.length * 2 : keys.length);
        }
        int at = (head + slots) & (keys.length - 1);
        key.ticket = nextTicket++;
        keys[at] = key;
        tickets[at] = key.ticket;
        slots++;
        live++;
    }

    /** Takes {@code key}, which is in the ring, out of it. */
    void remove(FlowKey key) {
        key.ticket = -1;
        live--;
        while (slots > 0 && stale(head)) {
            keys[head] = null;
            head = (head + 1) & (keys.length - 1);
            slots--;
        }
        if (slots > 2 * live + 64) {
            resize(keys.length);
        }
    }

    /** A walk over the keys in turn order, first to last; valid until the ring changes. */
    Turns turns() {
        return new Turns();
    }

    /** Iterates the ring's keys in turn order, skipping stale slots. */
    final class Turns {
        private int passed;

        boolean hasNext() {
            while (passed < slots && stale((head + passed) & (keys.length - 1))) {
                passed++;
            }
            return passed < slots;
        }

        FlowKey next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return keys[(head + passed++) & (keys.length - 1)];
        }
    }

    private boolean stale(int at) {
        return keys[at].ticket != tickets[at];
    }

    /** Copies the live slots, in order, to the front of arrays of {@code length} (a power of two). */
    private void resize(int length) {
        FlowKey[] movedKeys = new FlowKey[length];
        long[] movedTickets = new long[length];
        int n = 0;
        for (int i = 0; i < slots; i++) {
            int at = (head + i) & (keys.length - 1);
            if (!stale(at)) {
                movedKeys[n] = keys[at];
                movedTickets[n++] = tickets[at];
            }
        }
        Arrays.fill(keys, null);
        keys = movedKeys;
        tickets = movedTickets;
        head = 0;
        slots = n;
    }
}
