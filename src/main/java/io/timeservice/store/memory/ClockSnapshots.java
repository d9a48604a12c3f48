package io.timeservice.store.memory;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.Delivery;
import io.timeservice.model.Schedule;
import io.timeservice.model.SnapshotSequences;
import io.timeservice.model.Timer;

/**
 * The memory store's side of saved clocks ({@link ClockSnapshot}): a clock's state, taken under its lock as array
 * copies, seen as a snapshot in the snapshot's numbering; and a snapshot turned into what a new clock loads, its
 * sequences moved past the store's sequence floor. Needs no lock: it reads copies only.
 */
final class ClockSnapshots {

    private ClockSnapshots() {
    }

    /**
     * {@code state} as a snapshot of the clock {@code name}. Sorting the sequences takes O(n log n) here; the timers
     * are a view that builds each one as it is read, so a million timers are never all objects at once.
     */
    static ClockSnapshot of(String name, ClockImage state) {
        int size = state.size();
        List<SavedDelivery> saved = state.deliveries();
        long[] timerSequences = new long[size];
        long[] all = new long[size + saved.size()];
        for (int slot = 0; slot < size; slot++) {
            timerSequences[slot] = state.sequenceAt(slot);
            all[slot] = timerSequences[slot];
        }
        for (int i = 0; i < saved.size(); i++) {
            all[size + i] = saved.get(i).delivery().sequence();
        }
        SnapshotSequences numbering = new SnapshotSequences(all);
        int[] slotsBySequence = slotsBySequence(timerSequences);
        List<Delivery> deliveries = new ArrayList<>(saved.size());
        for (SavedDelivery each : saved) {
            Delivery d = each.delivery();
            deliveries.add(ClockSnapshot.saved(d, numbering.of(d.sequence()), state.now()));
        }
        deliveries.sort(Comparator.comparingLong(Delivery::sequence));
        ScheduleImage schedules = state.schedules();
        return new ClockSnapshot(name, state.settings(), state.now(), numbering.next(),
                new TimersBySequence(state, slotsBySequence, numbering, owners(schedules)), schedules.schedules(),
                deliveries, state.reservations());
    }

    /** Each pending occurrence's timer id to its schedule's id: the scheduled ones and the triggered ones. */
    private static Map<String, String> owners(ScheduleImage image) {
        Map<String, String> owners = new HashMap<>(image.triggeredOccurrences());
        for (Schedule schedule : image.schedules()) {
            if (schedule.next() != null) {
                owners.put(Schedule.occurrenceId(schedule.id(), schedule.next()), schedule.id());
            }
        }
        return owners;
    }

    /** The heap slots in the order of their timers' sequences, which are distinct. */
    private static int[] slotsBySequence(long[] sequences) {
        long[] sorted = sequences.clone();
        Arrays.sort(sorted);
        int[] slots = new int[sequences.length];
        for (int slot = 0; slot < sequences.length; slot++) {
            slots[Arrays.binarySearch(sorted, sequences[slot])] = slot;
        }
        return slots;
    }

    /** The timers of a state, by sequence, in the snapshot's numbering; each built when read. */
    private static final class TimersBySequence extends AbstractList<Timer> implements RandomAccess {

        private final ClockImage state;
        private final int[] slots;
        private final SnapshotSequences numbering;
        private final Map<String, String> owners;

        TimersBySequence(ClockImage state, int[] slots, SnapshotSequences numbering, Map<String, String> owners) {
            this.state = state;
            this.slots = slots;
            this.numbering = numbering;
            this.owners = owners;
        }

        @Override
        public Timer get(int index) {
            Timer t = state.timer(slots[index]);
            return new Timer(t.id(), t.fireTime(), t.priority(), numbering.of(t.sequence()), t.version(),
                    t.createdAt(), t.payload(), owners.isEmpty() ? null : owners.get(t.id()), t.traceContext(),
                    t.key());
        }

        @Override
        public int size() {
            return slots.length;
        }
    }

    /**
     * What a new clock loads from {@code snapshot}: its sequences the snapshot's plus {@code floor} (so they follow
     * every sequence a deleted clock reserved), its timers created on the wall clock at {@code createdAtWallMillis},
     * fired through just before its earliest timer (a queueing clock at its delivery limit may hold due timers),
     * with its schedules: a timer naming a schedule is its scheduled occurrence when it has the id of the schedule's
     * {@code next}, else a triggered one.
     */
    static RecoveredSnapshot recovered(ClockSnapshot snapshot, long floor, long createdAtWallMillis) {
        List<Mutation.Added> timers = new ArrayList<>(snapshot.timers().size());
        Map<String, Schedule> schedules = new HashMap<>();
        for (Schedule schedule : snapshot.schedules()) {
            schedules.put(schedule.id(), schedule);
        }
        Map<String, String> triggered = new HashMap<>();
        for (Timer t : snapshot.timers()) {
            timers.add(new Mutation.Added(new Timer(t.id(), t.fireTime(), t.priority(), floor + t.sequence(),
                    t.version(), t.createdAt(), t.payload(), null, t.traceContext(), t.key()), createdAtWallMillis));
            if (t.schedule() != null && !ClockSnapshot.isScheduledOccurrence(t, schedules)) {
                triggered.put(t.id(), t.schedule());
            }
        }
        List<SavedDelivery> deliveries = new ArrayList<>(snapshot.deliveries().size());
        for (Delivery d : snapshot.deliveries()) {
            deliveries.add(new SavedDelivery(new Delivery(d.id(), d.fireTime(), d.priority(), floor + d.sequence(),
                    d.payload(), d.attempt(), d.state(), null, 0, d.retryAt(), d.readyAt(), d.deadReason(),
                    d.schedule(), d.traceContext(), d.key()), 0));
        }
        long now = snapshot.settings().isSystem() ? createdAtWallMillis : snapshot.now();
        long firedThrough = snapshot.settings().mode() != ClockSettings.Mode.VIRTUAL ? now : snapshot.firedThrough();
        long last = floor + snapshot.nextSequence() - 1;
        return new RecoveredSnapshot(now, last, last, timers, snapshot.settings(), deliveries, List.of(),
                Math.min(firedThrough, now), null, new ScheduleImage(snapshot.schedules(), triggered),
                snapshot.reservations());
    }
}
