package io.timeservice.store.memory;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * One clock's dead deliveries, by sequence (pages over all of them) and by id (redrive, delete): a tree of all of
 * them and, per id, a tree of that id's. Adding or removing one is O(log n); an id's k dead deliveries are read in
 * sequence order in O(log n + k), so redriving or deleting them all is O(k log n). (Each id's were a list, and
 * taking one out of it a scan: O(k^2) for a hot id, under the clock's lock and again in recovery.)
 *
 * <p>Generic over the entry so that the queue keeps its entries private; the entry's sequence and id must not
 * change while it is here. Not thread-safe: the queue calls it under its clock's lock.
 *
 * @param <E> an entry, told apart by its sequence
 */
final class DeadLetters<E> {

    private final ToLongFunction<E> sequenceOf;
    private final Function<E, String> idOf;
    private final Comparator<E> bySequence;
    private final TreeMap<Long, E> all = new TreeMap<>();
    private final Map<String, NavigableSet<E>> byId = new HashMap<>();

    DeadLetters(ToLongFunction<E> sequenceOf, Function<E, String> idOf) {
        this.sequenceOf = sequenceOf;
        this.idOf = idOf;
        this.bySequence = Comparator.comparingLong(sequenceOf);
    }

    int size() {
        return all.size();
    }

    void add(E entry) {
        long sequence = sequenceOf.applyAsLong(entry);
        if (all.putIfAbsent(sequence, entry) != null) {
            throw new IllegalStateException("a dead delivery has sequence " + sequence + " already");
        }
        byId.computeIfAbsent(idOf.apply(entry), id -> new TreeSet<>(bySequence)).add(entry);
    }

    /** Takes the dead delivery {@code sequence} out and returns it. */
    E remove(long sequence) {
        E entry = all.remove(sequence);
        if (entry == null) {
            throw new IllegalStateException("no dead delivery has sequence " + sequence);
        }
        String id = idOf.apply(entry);
        NavigableSet<E> sameId = byId.get(id);
        sameId.remove(entry);
        if (sameId.isEmpty()) {
            byId.remove(id);
        }
        return entry;
    }

    /** The dead deliveries of {@code id} in sequence order (only {@code sequence} when not null); a live view. */
    Collection<E> of(String id, Long sequence) {
        if (sequence != null) {
            E entry = all.get(sequence);
            return entry != null && idOf.apply(entry).equals(id) ? List.of(entry) : List.of();
        }
        NavigableSet<E> sameId = byId.get(id);
        return sameId == null ? List.of() : sameId;
    }

    /** Every dead delivery after {@code sequence}, in sequence order; a live view. */
    Collection<E> after(long sequence) {
        return all.tailMap(sequence, false).values();
    }

    void clear() {
        all.clear();
        byId.clear();
    }
}
