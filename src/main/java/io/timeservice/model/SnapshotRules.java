package io.timeservice.model;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules a {@link ClockSnapshot} must keep to be loaded, the same for both stores: every refusal is
 * {@code invalid_snapshot} naming the JSON pointer of the member it refuses ({@link ProblemException#member}), and
 * {@link #check} reports the first, in document order (clock, then timers, then schedules, then deliveries, each
 * member in the order the document schema lists them). The rules are the API's own: ids as {@link TimerRules#requireValidId}, times within
 * what an add or advance could have made, versions and attempts within their bounds, sequences distinct and below
 * {@code nextSequence}, schedules as {@link ScheduleRules#requireSchedule} takes them (through the same code), with counts
 * and a pending occurrence a clock could hold, and deliveries only on a clock that queues them, each in a state a
 * saved clock can hold.
 * What depends on the store's state (the name, the capacity, the clock limit) is the store's to refuse.
 */
public final class SnapshotRules {

    /** Longest dead reason kept; the service's own are far shorter. */
    public static final int MAX_DEAD_REASON_LENGTH = 1024;

    private SnapshotRules() {
    }

    /**
     * Refuses {@code snapshot} at its first bad member.
     *
     * @throws ProblemException {@code invalid_snapshot} with the member's JSON pointer
     */
    public static void check(ClockSnapshot snapshot, CronParser parser) {
        long now = snapshot.now();
        require(now >= 0 && now <= Limits.MAX_TIME, "/clock/now", "now must be between 0 and " + Limits.MAX_TIME
                + ": " + now);
        long next = snapshot.nextSequence();
        require(next >= 1, "/clock/nextSequence", "nextSequence must be at least 1: " + next);
        Set<String> ids = new HashSet<>();
        long latestFireTime = TimeRules.saturatedAdd(now, Limits.MAX_DELAY);
        List<Timer> timers = snapshot.timers();
        for (int i = 0; i < timers.size(); i++) {
            Timer timer = timers.get(i);
            String at = "/timers/" + i + "/";
            requireId(timer.id(), at + "id");
            requireKey(timer.key(), at + "key");
            require(ids.add(timer.id()), at + "id", "timer id " + timer.id() + " is pending twice");
            require(timer.fireTime() >= 0 && timer.fireTime() <= latestFireTime, at + "fireTime",
                    "fireTime must be between 0 and " + latestFireTime + " (now + " + Limits.MAX_DELAY
                            + ", at most the end of time): " + timer.fireTime());
            requireSequence(timer.sequence(), next, at + "sequence");
            require(timer.version() >= 1 && timer.version() <= Timer.MAX_VERSION, at + "version",
                    "version must be between 1 and " + Timer.MAX_VERSION + ": " + timer.version());
            require(timer.createdAt() >= 0 && timer.createdAt() <= now, at + "createdAt",
                    "createdAt must be between 0 and now (" + now + "): " + timer.createdAt());
            if (timer.schedule() != null) {
                requireScheduleId(timer.schedule(), at + "schedule");
                require(timer.id().equals(Schedule.occurrenceId(timer.schedule(), timer.fireTime())), at + "id",
                        "an occurrence of schedule " + timer.schedule() + " due at " + timer.fireTime() + " has the id "
                                + Schedule.occurrenceId(timer.schedule(), timer.fireTime()));
            }
        }
        ScheduleSnapshotRules.check(snapshot, parser);
        List<Delivery> deliveries = snapshot.deliveries();
        require(deliveries.isEmpty() || snapshot.settings().queues(), "/deliveries/0", "a clock whose delivery is"
                + " response (advance answers what fired) holds no deliveries");
        int maxAttempts = snapshot.settings().retry().maxAttempts();
        for (int i = 0; i < deliveries.size(); i++) {
            Delivery d = deliveries.get(i);
            String at = "/deliveries/" + i + "/";
            requireId(d.id(), at + "id");
            requireKey(d.key(), at + "key");
            require(d.fireTime() >= 0 && d.fireTime() <= now, at + "fireTime",
                    "a delivery's fireTime must be between 0 and now (" + now + "): " + d.fireTime());
            requireSequence(d.sequence(), next, at + "sequence");
            require(d.attempt() >= 1 && d.attempt() <= maxAttempts, at + "attempt",
                    "attempt must be between 1 and the clock's retry.maxAttempts (" + maxAttempts + "): "
                            + d.attempt());
            require(d.state() != Delivery.State.IN_FLIGHT, at + "state", "a snapshot holds no in-flight delivery"
                    + " (a saved one is ready again): state must be ready, waiting or dead");
            require(d.readyAt() >= 0 && d.readyAt() <= now, at + "readyAt",
                    "readyAt must be between 0 and now (" + now + "): " + d.readyAt());
            boolean waiting = d.state() == Delivery.State.WAITING;
            require(waiting == (d.retryAt() != 0), at + "retryAt", waiting
                    ? "a waiting delivery needs its retryAt" : "only a waiting delivery has a retryAt");
            require(!waiting || d.retryAt() > 0 && d.retryAt() <= Limits.MAX_TIME, at + "retryAt",
                    "retryAt must be between 1 and the end of time, " + Limits.MAX_TIME + ": " + d.retryAt());
            require(d.deadReason() == null || d.state() == Delivery.State.DEAD, at + "deadReason",
                    "only a dead delivery has a deadReason");
            require(d.deadReason() == null || d.deadReason().length() <= MAX_DEAD_REASON_LENGTH, at + "deadReason",
                    "deadReason must be at most " + MAX_DEAD_REASON_LENGTH + " characters");
            if (d.schedule() != null) {
                requireScheduleId(d.schedule(), at + "schedule");
            }
        }
        requireDistinctSequences(timers, deliveries);
    }

    /** Sorted rather than hashed: a million boxed sequences would cost some 50 MB. */
    private static void requireDistinctSequences(List<Timer> timers, List<Delivery> deliveries) {
        long[] all = new long[timers.size() + deliveries.size()];
        for (int i = 0; i < timers.size(); i++) {
            all[i] = timers.get(i).sequence();
        }
        for (int i = 0; i < deliveries.size(); i++) {
            all[timers.size() + i] = deliveries.get(i).sequence();
        }
        long[] sorted = all.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                long twice = sorted[i];
                boolean seen = false;
                for (int j = 0; j < all.length; j++) {
                    if (all[j] == twice && seen) {
                        String at = j < timers.size() ? "/timers/" + j : "/deliveries/" + (j - timers.size());
                        throw refused(at + "/sequence", "sequence " + twice + " is used twice");
                    }
                    seen |= all[j] == twice;
                }
            }
        }
    }

    private static void requireId(String id, String pointer) {
        try {
            TimerRules.requireValidId(id);
        } catch (ProblemException invalid) {
            throw new ProblemException(ErrorCode.INVALID_SNAPSHOT, invalid.getMessage()).atMember(pointer);
        }
    }

    private static void requireKey(String key, String pointer) {
        try {
            TimerRules.requireValidKey(key);
        } catch (ProblemException invalid) {
            throw new ProblemException(ErrorCode.INVALID_SNAPSHOT, invalid.getMessage()).atMember(pointer);
        }
    }

    static void requireScheduleId(String id, String pointer) {
        try {
            ScheduleRules.requireValidScheduleId(id);
        } catch (ProblemException invalid) {
            throw new ProblemException(ErrorCode.INVALID_SNAPSHOT, invalid.getMessage()).atMember(pointer);
        }
    }

    private static void requireSequence(long sequence, long next, String pointer) {
        require(sequence >= 1 && sequence < next, pointer, "sequence must be between 1 and nextSequence - 1 ("
                + (next - 1) + "): " + sequence);
    }

    static void require(boolean kept, String pointer, String message) {
        if (!kept) {
            throw refused(pointer, message);
        }
    }

    /** The refusal of the member at {@code pointer}, for whoever reads a document: {@code invalid_snapshot}. */
    public static ProblemException refused(String pointer, String message) {
        return new ProblemException(ErrorCode.INVALID_SNAPSHOT, message).atMember(pointer);
    }

    /**
     * Refuses reserved ids in a document whose clock has no dedupe window, or one id reserved twice:
     * {@code invalid_snapshot} at {@code /reservations}.
     */
    public static void requireReservations(ClockSettings settings, List<Reservation> reservations) {
        if (reservations.isEmpty()) {
            return;
        }
        if (!settings.dedupes()) {
            throw refused("/reservations", "reserved ids need the clock's dedupeWindow (clock.dedupeWindow)");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < reservations.size(); i++) {
            if (!seen.add(reservations.get(i).id())) {
                throw refused("/reservations/" + i + "/id", "id " + reservations.get(i).id() + " is reserved twice");
            }
        }
    }
}
