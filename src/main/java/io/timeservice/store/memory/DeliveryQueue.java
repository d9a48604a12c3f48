package io.timeservice.store.memory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.TreeSet;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery.State;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.DeliveryRules;
import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.TimeRules;
import io.timeservice.model.Timer;

/**
 * One clock's fired timers on their way to workers: ready to claim, in flight under a lease, waiting for a retry,
 * or dead. Every delivery is in exactly one of the four sets; an entry leaves the queue only when it is acknowledged
 * or a dead one is deleted.
 *
 * <ul>
 * <li>ready: a binary heap by (readyAt, fireTime, priority, sequence): claims take the longest-ready first, and
 *     first attempts (ready at their fireTime) in the strict firing order; under flow control ({@link FlowLimits})
 *     a {@link FlowReady} instead: the same order within each key, round robin between keys, limits held;</li>
 * <li>in flight: by claim token (ack, nack, extend) and in a tree by lease end (expiry);</li>
 * <li>waiting: in a tree by retry time;</li>
 * <li>dead: {@link DeadLetters}, by sequence (pages) and by id (redrive, delete).</li>
 * </ul>
 * Acknowledged claims are remembered in this clock's share of the registry's {@link RecentAcks}.
 *
 * <p>Deterministic: every method's effect follows from the state and its arguments alone (a retry's jitter is a hash,
 * claim tokens and times come in as arguments), so recovery replays a journal of these calls to exactly the state
 * the live service had. Not thread-safe: the clock calls it only while holding its lock, and only after it has
 * decided that the call cannot be refused (the {@code require} methods decide, the others apply).
 */
final class DeliveryQueue {

    static final Comparator<Entry> READY_ORDER = Comparator.<Entry>comparingLong(e -> e.readyAt)
            .thenComparingLong(e -> e.timer.fireTime()).thenComparingInt(e -> e.timer.priority())
            .thenComparingLong(e -> e.timer.sequence());
    private static final Comparator<Entry> LEASE_ORDER = Comparator.<Entry>comparingLong(e -> e.leaseUntil)
            .thenComparingLong(e -> e.timer.sequence());
    private static final Comparator<Entry> RETRY_ORDER = Comparator.<Entry>comparingLong(e -> e.retryAt)
            .thenComparingLong(e -> e.timer.sequence());

    private static final Comparator<Entry> BY_SEQUENCE = Comparator.comparingLong(e -> e.timer.sequence());

    private RetryPolicy policy;
    private final PriorityQueue<Entry> ready = new PriorityQueue<>(READY_ORDER);
    /** The ready deliveries under flow control, instead of {@link #ready}; null without flow control. */
    private FlowReady flow;
    private final TreeSet<Entry> leases = new TreeSet<>(LEASE_ORDER);
    private final Map<String, Entry> byClaim = new HashMap<>();
    private final TreeSet<Entry> waiting = new TreeSet<>(RETRY_ORDER);
    private final DeadLetters<Entry> dead = new DeadLetters<>(e -> e.timer.sequence(), e -> e.timer.id());
    private final RecentAcks.Share recentAcks;
    /** Told each delivery that leaves the queue, so its id stays reserved for the clock's dedupe window. */
    private final Reservations reservations;
    private long bytes;

    /** @param recentAcks where this clock remembers its acknowledged claims, within a bound over all clocks */
    DeliveryQueue(RetryPolicy policy, RecentAcks.Share recentAcks, Reservations reservations) {
        this.policy = policy;
        this.recentAcks = recentAcks;
        this.reservations = reservations;
    }

    /** One delivery; its mutable fields change only through the queue, out of any sorted set that orders by them. */
    static final class Entry {
        final Timer timer;
        int attempt = 1;
        State state = State.READY;
        String claim;
        long leaseUntil;
        long leaseMillis;
        long retryAt;
        long readyAt;
        String deadReason;

        Entry(Timer timer) {
            this.timer = timer;
        }

        Delivery view() {
            return new Delivery(timer.id(), timer.fireTime(), timer.priority(), timer.sequence(), timer.payload(),
                    attempt, state, claim, leaseUntil, retryAt, readyAt, deadReason, timer.schedule(), timer.traceContext(),
                    timer.key());
        }
    }

    /** What one {@link #settle} moved. */
    record Settled(int expired, int died, int readied) {
        static final Settled NOTHING = new Settled(0, 0, 0);
    }

    RetryPolicy policy() {
        return policy;
    }

    /** Takes the retry policy and the flow control of {@code settings}. */
    void settings(ClockSettings settings) {
        this.policy = settings.retry();
        flow(settings.flow());
    }

    int size() {
        return readyCount() + byClaim.size() + waiting.size() + dead.size();
    }

    /**
     * Takes a live clock's changed settings at {@code now} ({@link io.timeservice.model.ClockChange}): the retry
     * policy for the next failed attempt, and clock-wide flow limits for the next claim, the clock's bucket retuned
     * keeping the whole tokens it holds ({@link FlowReady#retuneClock}). Flow control stays on or off.
     */
    void change(ClockSettings settings, long now) {
        this.policy = settings.retry();
        if (flow != null && !Objects.equals(settings.flow(), flow.limits())) {
            flow.retuneClock(settings.flow(), now);
        }
    }

    /**
     * Hands out the ready deliveries under {@code limits} from now on (null: none, in the ready order over the whole
     * clock): the ready ones move to the new structure, in-flight ones hold their slots, buckets start full.
     */
    void flow(FlowLimits limits) {
        if (Objects.equals(limits, flow == null ? null : flow.limits())) {
            return;
        }
        List<Entry> readyNow = new ArrayList<>(flow == null ? ready : flow.entries());
        ready.clear();
        flow = limits == null ? null : new FlowReady(limits);
        if (flow != null) {
            for (Entry entry : byClaim.values()) {
                flow.holding(entry);
            }
        }
        for (Entry entry : readyNow) {
            addReady(entry);
        }
    }

    /**
     * Takes {@code limits}, the flow control held but for {@code key}'s override, at {@code now}; see
     * {@link FlowReady#retune}. Call only under flow control.
     */
    void flowKey(FlowLimits limits, String key, long now) {
        flow.retune(limits, key, now);
    }

    /** The busiest keys under flow control ({@link FlowReady#busiest}); none without flow control. */
    List<FlowKeyState> busiestKeys(int n, long now) {
        return flow == null ? List.of() : flow.busiest(n, now);
    }

    /** Ready deliveries held back by their key's flow limits; 0 without flow control. */
    int heldBack() {
        return flow == null ? 0 : flow.heldBack();
    }

    /** Keys whose ready deliveries are held back by their limits; 0 without flow control. */
    int keysAtLimit() {
        return flow == null ? 0 : flow.keysAtLimit();
    }

    /** The tokens flow control denied since the last call; 0 without flow control. */
    int takeTokensDenied() {
        return flow == null ? 0 : flow.takeDenied();
    }

    /** Whether claims are planned ({@link #plan}) under flow control. */
    boolean flowControlled() {
        return flow != null;
    }

    long bytes() {
        return bytes;
    }

    int readyCount() {
        return flow != null ? flow.readyCount() : ready.size();
    }

    int inFlightCount() {
        return byClaim.size();
    }

    int waitingCount() {
        return waiting.size();
    }

    int deadCount() {
        return dead.size();
    }

    /** When the longest-ready delivery became ready, or {@link Long#MAX_VALUE} when none is ready. */
    long oldestReadyAt() {
        if (flow != null) {
            return flow.oldestReadyAt();
        }
        Entry head = ready.peek();
        return head == null ? Long.MAX_VALUE : head.readyAt;
    }

    /** The earliest time a lease ends or a retry comes due, or {@link Long#MAX_VALUE}. */
    long nextDeadline() {
        long next = Long.MAX_VALUE;
        if (!leases.isEmpty()) {
            next = leases.first().leaseUntil;
        }
        if (!waiting.isEmpty()) {
            next = Math.min(next, waiting.first().retryAt);
        }
        return next;
    }

    /** When the earliest lease ends, or {@link Long#MAX_VALUE} when none is in flight. */
    long nextLeaseEnd() {
        return leases.isEmpty() ? Long.MAX_VALUE : leases.first().leaseUntil;
    }

    /** When the earliest waiting retry becomes ready, or {@link Long#MAX_VALUE} when none waits. */
    long nextRetryAt() {
        return waiting.isEmpty() ? Long.MAX_VALUE : waiting.first().retryAt;
    }

    boolean needsSettle(long now) {
        return nextDeadline() <= now;
    }

    // ---- changes ----

    /** A timer fired: its first attempt is ready from its fireTime on. */
    void fired(Timer timer) {
        Entry entry = new Entry(timer);
        entry.readyAt = timer.fireTime();
        addReady(entry);
        bytes += Capacity.bytesOf(timer);
    }

    /**
     * Moves what time has come for: every lease ended by {@code now} goes to waiting with one more attempt (or dead
     * after the last one), then every retry due by {@code now} becomes ready at its retry time.
     */
    Settled settle(long now) {
        int expired = 0;
        int died = 0;
        int readied = 0;
        while (!leases.isEmpty() && leases.first().leaseUntil <= now) {
            Entry entry = leases.pollFirst();
            byClaim.remove(entry.claim);
            entry.claim = null;
            if (flow != null) {
                flow.released(entry);
            }
            expired++;
            if (policy.exhausted(entry.attempt, entry.timer.fireTime(), entry.leaseUntil)) {
                toDead(entry, "lease expired " + policy.exhaustedOn(entry.attempt), entry.leaseUntil);
                died++;
            } else {
                entry.attempt++;
                toWaiting(entry, TimeRules.saturatedAdd(entry.leaseUntil,
                        policy.backoffMillis(entry.timer.sequence(), entry.attempt)));
            }
        }
        while (!waiting.isEmpty() && waiting.first().retryAt <= now) {
            Entry entry = waiting.pollFirst();
            toReady(entry, entry.retryAt);
            readied++;
        }
        return expired + died + readied == 0 ? Settled.NOTHING : new Settled(expired, died, readied);
    }

    /**
     * Leases the first {@code claims.size()} ready deliveries (at most {@link #readyCount}) until
     * {@code now + leaseMillis} (saturated: {@link TimeRules#saturatedAdd}), one claim token each, in order; returns
     * them.
     */
    List<Delivery> claim(long now, long leaseMillis, List<String> claims) {
        List<Delivery> claimed = new ArrayList<>(claims.size());
        for (String claim : claims) {
            claimed.add(lease(ready.remove(), now, leaseMillis, claim));
        }
        return claimed;
    }

    /** What a claim under flow control takes, chosen by {@link #plan}: the sequences its record names. */
    record Planned(List<Entry> entries) {

        List<Long> sequences() {
            return entries.stream().map(e -> e.timer.sequence()).toList();
        }
    }

    /** The deliveries a claim of at most {@code max} at {@code now} takes under flow control; changes none. */
    Planned plan(long now, int max) {
        return new Planned(flow.plan(now, max));
    }

    /** Leases what {@link #plan} chose, in its order, one claim token each; returns them. */
    List<Delivery> claim(long now, long leaseMillis, List<String> claims, Planned planned) {
        List<Delivery> claimed = new ArrayList<>(claims.size());
        for (int i = 0; i < claims.size(); i++) {
            Entry entry = planned.entries().get(i);
            flow.take(entry, now);
            claimed.add(lease(entry, now, leaseMillis, claims.get(i)));
        }
        return claimed;
    }

    /**
     * A recorded claim under flow control, replayed: leases the ready deliveries {@code sequences}, in that order.
     *
     * @throws IllegalStateException when one is not ready, or not first of its key (the journal and state disagree)
     */
    List<Delivery> claimSequences(long now, long leaseMillis, List<String> claims, List<Long> sequences) {
        if (flow == null || claims.size() != sequences.size()) {
            throw new IllegalStateException("a flow-controlled claim of " + sequences.size() + " deliveries on a"
                    + " clock " + (flow == null ? "without flow control" : "with " + claims.size() + " claims"));
        }
        List<Entry> entries = new ArrayList<>(sequences.size());
        for (long sequence : sequences) {
            Entry entry = flow.ready(sequence);
            if (entry == null) {
                throw new IllegalStateException("a claim of delivery " + sequence + ", which is not ready");
            }
            entries.add(entry);
        }
        return claim(now, leaseMillis, claims, new Planned(entries));
    }

    private Delivery lease(Entry entry, long now, long leaseMillis, String claim) {
        entry.state = State.IN_FLIGHT;
        entry.claim = claim;
        entry.leaseMillis = leaseMillis;
        entry.leaseUntil = TimeRules.saturatedAdd(now, leaseMillis);
        leases.add(entry);
        byClaim.put(claim, entry);
        return entry.view();
    }

    /**
     * The in-flight delivery {@code id} whose lease {@code claim} names and has not ended by {@code now}; null when
     * {@code allowAcked} and that claim was acknowledged already (a repeated ack).
     *
     * @throws ProblemException {@code claim_lost}: no such lease (wrong token, another id, expired, or settled)
     */
    Delivery requireClaim(String id, String claim, long now, boolean allowAcked) {
        Entry entry = claim == null ? null : byClaim.get(claim);
        if (entry == null && allowAcked && claim != null && id != null && recentAcks.remembers(claim, id)) {
            return null;
        }
        if (entry == null || !entry.timer.id().equals(id) || entry.leaseUntil <= now) {
            throw DeliveryRules.claimLost(id);
        }
        return entry.view();
    }

    /** Acknowledges the delivery leased by {@code claim}: it leaves the queue. Returns it. */
    Delivery ack(String claim) {
        Entry entry = leased(claim);
        bytes -= Capacity.bytesOf(entry.timer);
        recentAcks.remember(claim, entry.timer.id());
        reservations.acknowledged(entry.timer.id(), entry.timer.sequence());
        return entry.view();
    }

    /**
     * Gives the delivery leased by {@code claim} back: ready again at {@code retryAt} (at once if that is not after
     * {@code now}) with one more attempt, or dead if this was its last attempt. Returns its new state.
     */
    Delivery nack(String claim, long now, long retryAt) {
        Entry entry = leased(claim);
        if (policy.exhausted(entry.attempt, entry.timer.fireTime(), now)) {
            toDead(entry, "nacked " + policy.exhaustedOn(entry.attempt), now);
        } else {
            entry.attempt++;
            if (retryAt <= now) {
                toReady(entry, now);
            } else {
                toWaiting(entry, retryAt);
            }
        }
        return entry.view();
    }

    /** Sends the delivery leased by {@code claim} to the dead letters with {@code reason}, attempts left or not. */
    Delivery reject(String claim, String reason) {
        Entry held = byClaim.get(claim);
        long leaseEnd = held == null ? 0 : held.leaseUntil; // its time of death (DeliveryFilter): no time in the journal
        Entry entry = leased(claim);
        toDead(entry, reason, leaseEnd);
        return entry.view();
    }

    /** The lease {@code claim} ends at {@code now + leaseMillis} (saturated) instead. */
    Delivery extend(String claim, long now, long leaseMillis) {
        Entry entry = byClaim.get(claim);
        leases.remove(entry);
        entry.leaseMillis = leaseMillis;
        entry.leaseUntil = TimeRules.saturatedAdd(now, leaseMillis);
        leases.add(entry);
        return entry.view();
    }

    /** Every in-flight lease starts again at {@code now}, for its full length: the restart a crash forced. */
    int renewLeases(long now) {
        List<Entry> inFlight = new ArrayList<>(leases);
        leases.clear();
        for (Entry entry : inFlight) {
            entry.leaseUntil = TimeRules.saturatedAdd(now, entry.leaseMillis);
            leases.add(entry);
        }
        return inFlight.size();
    }

    /**
     * The dead deliveries of {@code id} (one of them: {@code sequence} when not null) by sequence, at most the first
     * {@link Limits#MAX_DEAD_LETTERS_PER_CALL}: what one redrive or delete takes. O(log n + k).
     */
    List<Delivery> deadOf(String id, Long sequence) {
        List<Delivery> matching = new ArrayList<>();
        for (Entry entry : dead.of(id, sequence)) {
            if (matching.size() == Limits.MAX_DEAD_LETTERS_PER_CALL) {
                break;
            }
            matching.add(entry.view());
        }
        return matching;
    }

    /** Up to {@code limit} dead deliveries by sequence, after {@code afterSequence}. */
    List<Delivery> deadPage(int limit, long afterSequence) {
        List<Delivery> page = new ArrayList<>(Math.min(limit, 128));
        for (Entry entry : dead.after(afterSequence)) {
            if (page.size() == limit) {
                break;
            }
            page.add(entry.view());
        }
        return page;
    }

    /**
     * Up to {@code limit} deliveries {@code filter} takes, by sequence after {@code afterSequence}: dead ones read in
     * order from their tree, O(log n + scanned); the others scanned whole, keeping the {@code limit} lowest sequences,
     * O(n log limit) with no copy of the set.
     */
    List<Delivery> list(DeliveryFilter filter, int limit, long afterSequence) {
        List<Delivery> page = new ArrayList<>(Math.min(limit, 128));
        if (filter.state() == State.DEAD) {
            for (Entry entry : dead.after(afterSequence)) {
                if (page.size() == limit) {
                    break;
                }
                if (takes(filter, entry)) {
                    page.add(entry.view());
                }
            }
            return page;
        }
        Collection<Entry> inState = switch (filter.state()) {
            case READY -> readyEntries();
            case IN_FLIGHT -> leases;
            default -> waiting;
        };
        PriorityQueue<Entry> lowest = new PriorityQueue<>(Math.min(limit, 128) + 1, BY_SEQUENCE.reversed());
        for (Entry entry : inState) {
            if (entry.timer.sequence() > afterSequence && takes(filter, entry)) {
                lowest.add(entry);
                if (lowest.size() > limit) {
                    lowest.poll();
                }
            }
        }
        List<Entry> inOrder = new ArrayList<>(lowest);
        inOrder.sort(BY_SEQUENCE);
        for (Entry entry : inOrder) {
            page.add(entry.view());
        }
        return page;
    }

    /** How many deliveries {@code filter} takes: O(n) in the deliveries of its state. */
    long count(DeliveryFilter filter) {
        Collection<Entry> inState = switch (filter.state()) {
            case READY -> readyEntries();
            case IN_FLIGHT -> leases;
            case WAITING -> waiting;
            case DEAD -> dead.after(Long.MIN_VALUE);
        };
        long count = 0;
        for (Entry entry : inState) {
            count += takes(filter, entry) ? 1 : 0;
        }
        return count;
    }

    /** The sequences of a chunk of matching dead letters, the last sequence looked at, and whether more follow. */
    record DeadMatches(List<Long> sequences, long lastSeen, boolean more) {
    }

    /**
     * The dead letters {@code filter} takes after {@code afterSequence} in sequence order, at most {@code max} of
     * them, looking at no more than {@code scanMax} (so one chunk's time under the lock is bounded whatever matches).
     */
    DeadMatches deadMatching(DeliveryFilter filter, long afterSequence, int max, int scanMax) {
        List<Long> sequences = new ArrayList<>();
        long lastSeen = afterSequence;
        int scanned = 0;
        Iterator<Entry> entries = dead.after(afterSequence).iterator();
        while (entries.hasNext() && sequences.size() < max && scanned < scanMax) {
            Entry entry = entries.next();
            scanned++;
            lastSeen = entry.timer.sequence();
            if (takes(filter, entry)) {
                sequences.add(lastSeen);
            }
        }
        return new DeadMatches(sequences, lastSeen, entries.hasNext());
    }

    private static boolean takes(DeliveryFilter filter, Entry entry) {
        return filter.matches(entry.timer.id(), entry.attempt, entry.deadReason, entry.readyAt);
    }

    /** The dead deliveries {@code sequences} are ready again at {@code now}, from attempt 1; returns them. */
    List<Delivery> redrive(List<Long> sequences, long now) {
        List<Delivery> redriven = new ArrayList<>(sequences.size());
        for (long sequence : sequences) {
            Entry entry = dead.remove(sequence);
            entry.attempt = 1;
            entry.deadReason = null;
            toReady(entry, now);
            redriven.add(entry.view());
        }
        return redriven;
    }

    /** The dead deliveries {@code sequences} leave the queue; returns their bytes. */
    long deleteDead(List<Long> sequences) {
        long freed = 0;
        for (long sequence : sequences) {
            Timer gone = dead.remove(sequence).timer;
            freed += Capacity.bytesOf(gone);
            reservations.deadDeleted(gone.id(), gone.sequence());
        }
        bytes -= freed;
        return freed;
    }

    /** The ready deliveries, in no particular order. */
    private Collection<Entry> readyEntries() {
        return flow != null ? flow.unordered() : ready;
    }

    /** Forgets every delivery (reset, clock deletion). */
    void clear() {
        ready.clear();
        if (flow != null) {
            flow = new FlowReady(flow.limits());
        }
        leases.clear();
        byClaim.clear();
        waiting.clear();
        dead.clear();
        recentAcks.clear();
        bytes = 0;
    }

    /** Every delivery, for a snapshot. */
    List<SavedDelivery> image() {
        List<SavedDelivery> all = new ArrayList<>(size());
        for (Entry entry : flow != null ? flow.entries() : ready) {
            all.add(new SavedDelivery(entry.view(), 0));
        }
        for (Entry entry : leases) {
            all.add(new SavedDelivery(entry.view(), entry.leaseMillis));
        }
        for (Entry entry : waiting) {
            all.add(new SavedDelivery(entry.view(), 0));
        }
        for (Entry entry : dead.after(Long.MIN_VALUE)) {
            all.add(new SavedDelivery(entry.view(), 0));
        }
        return all;
    }

    /** The recent acknowledgements, oldest first, for a snapshot. */
    List<RecentAck> recentAcks() {
        return recentAcks.image();
    }

    /** Puts back one recent acknowledgement a snapshot held; call in the order {@link #recentAcks} gave them. */
    void restore(RecentAck ack) {
        recentAcks.remember(ack.claim(), ack.id());
    }

    /** Puts back one delivery a snapshot held, in the state it had. */
    void restore(SavedDelivery saved) {
        Delivery delivery = saved.delivery();
        long leaseMillis = saved.leaseMillis();
        Entry entry = new Entry(new Timer(delivery.id(), delivery.fireTime(), delivery.priority(),
                delivery.sequence(), 1, delivery.fireTime(), delivery.payload(), delivery.schedule(),
                delivery.traceContext(), delivery.key()));
        entry.attempt = delivery.attempt();
        entry.readyAt = delivery.readyAt();
        bytes += Capacity.bytesOf(entry.timer);
        switch (delivery.state()) {
            case READY -> addReady(entry);
            case IN_FLIGHT -> {
                entry.state = State.IN_FLIGHT;
                entry.claim = delivery.claim();
                entry.leaseUntil = delivery.leaseUntil();
                entry.leaseMillis = leaseMillis;
                leases.add(entry);
                byClaim.put(entry.claim, entry);
                if (flow != null) {
                    flow.holding(entry);
                }
            }
            case WAITING -> toWaiting(entry, delivery.retryAt());
            case DEAD -> toDead(entry, delivery.deadReason(), delivery.readyAt());
        }
    }

    /** Whether the in-flight set holds {@code claim} (recovery checks records against the state). */
    boolean holds(String claim) {
        return claim != null && byClaim.containsKey(claim);
    }

    private Entry leased(String claim) {
        Entry entry = byClaim.remove(claim);
        if (entry == null) {
            throw new IllegalStateException("no delivery is leased by that claim");
        }
        leases.remove(entry);
        entry.claim = null;
        entry.leaseUntil = 0;
        if (flow != null) {
            flow.released(entry);
        }
        return entry;
    }

    private void toReady(Entry entry, long readyAt) {
        entry.state = State.READY;
        entry.retryAt = 0;
        entry.readyAt = readyAt;
        addReady(entry);
    }

    private void addReady(Entry entry) {
        if (flow != null) {
            flow.add(entry);
        } else {
            ready.add(entry);
        }
    }

    private void toWaiting(Entry entry, long retryAt) {
        entry.state = State.WAITING;
        entry.retryAt = retryAt;
        waiting.add(entry);
    }

    /** Dead for {@code reason} since {@code deadAt}, which a dead one keeps as its readyAt ({@link DeliveryFilter}). */
    private void toDead(Entry entry, String reason, long deadAt) {
        entry.state = State.DEAD;
        entry.readyAt = deadAt;
        entry.deadReason = reason;
        dead.add(entry);
    }

}
