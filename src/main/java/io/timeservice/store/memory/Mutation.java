package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ScaledTime;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;

/**
 * One accepted change of clock state, as a {@link MutationLog} records it and recovery replays it. Replaying
 * the mutations in log order on the state they started from reproduces the state exactly: every record carries
 * absolute values (a fireTime, not a delay; the clock's new time, not an increment), and an advance's fired timers
 * follow from the state it is applied to.
 */
public sealed interface Mutation {

    /** A timer was added; {@code createdAtWallMillis} feeds the oldest-age metric after a restart. */
    record Added(Timer timer, long createdAtWallMillis) implements Mutation {
    }

    /** The pending timer {@code id}, generation {@code sequence}, was cancelled. */
    record Cancelled(String id, long sequence) implements Mutation {
    }

    /**
     * The pending timer {@code id}, generation {@code sequence}, was replaced by an add ({@code onConflict: replace}):
     * it fires at {@code fireTime} with {@code priority} and {@code payload}, at {@code version}.
     */
    record Replaced(String id, long sequence, long fireTime, int priority, long version, String payload)
            implements Mutation {
    }

    /** The clock's reservation of {@code id} (its dedupe window) was released early. */
    record ReservationReleased(String id) implements Mutation {
    }

    /** The pending timer {@code id} now fires at {@code fireTime} with {@code priority}, at {@code version}. */
    record Edited(String id, long sequence, long fireTime, int priority, long version) implements Mutation {
    }

    /** The clock moved to {@code now}, firing every timer due by then. */
    record Advanced(long now) implements Mutation {
    }

    /**
     * A bounded advance that stopped at its limit: exactly the first {@code count} timers in firing order fired (all
     * due by {@code now}, the last fired one's fireTime) and the clock moved to {@code now} (or stayed at its later
     * time, after a {@link Passed}); timers due at {@code now} after them stay pending, which {@link Advanced} could
     * not say.
     */
    record AdvancedFiring(long now, int count) implements Mutation {
    }

    /**
     * The clock's time moved to {@code now} and nothing fired: an advance of a queueing clock whose deliveries hold
     * their limit, so that leases end and retries come due on its time while the due timers stay pending (they fire
     * on a later advance, once there is room).
     */
    record Passed(long now) implements Mutation {
    }

    /** The demo reset: every timer forgotten, the clock back at 0, sequences continuing. */
    record Reset() implements Mutation {
    }

    /**
     * Sequences up to {@code upTo} may be handed out: recorded on disk before any of them is, whatever the fsync
     * policy, so that recovery continues after {@code upTo} even when the records that used them were lost.
     */
    record SequencesReserved(long upTo) implements Mutation {
    }

    /**
     * A record of the clock numbered {@code clock} (not the default clock, whose records stay bare): journaled by
     * that clock's view of the shared journal, dispatched back to it by recovery.
     */
    record OnClock(long clock, Mutation mutation) implements Mutation {
    }

    /**
     * A clock was created: {@code number} tags its records from now on; its time starts at {@code now} and its
     * sequences after {@code firstSequence}.
     */
    record ClockCreated(long number, String name, long now, long createdAtWallMillis, long firstSequence,
                        ClockSettings settings) implements Mutation {

        /** A virtual clock answering advances with what fired (records before clock settings existed). */
        public ClockCreated(long number, String name, long now, long createdAtWallMillis, long firstSequence) {
            this(number, name, now, createdAtWallMillis, firstSequence, ClockSettings.VIRTUAL);
        }
    }

    /**
     * Clock {@code number} named {@code name} was created as a copy of clock {@code source} as that clock stood at
     * this record (written under the source's lock, so none of its records comes between): its time, settings, timers
     * and deliveries, in-flight ones ready again with their attempt and no claim ({@code ClockCopy}). Its sequences
     * continue after {@code lastSequence}. One record, so a crash leaves the whole copy or none of it.
     *
     * <p>{@code copiedAt} is the source's time the copy holds ({@link #UNKNOWN_TIME} in a record written before format
     * version 12: then the source's time in replay): a clock on the wall clock may show a time no record of its own
     * holds (it stands still while the wall clock steps back), and the copy must start where the live one did.
     */
    record ClockForked(long number, String name, long source, long createdAtWallMillis, long lastSequence,
            long copiedAt) implements Mutation {

        /** A {@code copiedAt} an older record does not hold. */
        public static final long UNKNOWN_TIME = -1;
    }

    /**
     * Clock {@code number} named {@code name} was created from a saved clock ({@code PUT /clocks/{name}/snapshot}):
     * {@code snapshot} holds all of it, time, settings, timers and deliveries, its sequences already the clock's own.
     * One record, so a crash leaves the whole clock or none of it.
     */
    record ClockLoaded(long number, String name, long createdAtWallMillis, RecoveredSnapshot snapshot)
            implements Mutation {
    }

    /**
     * The {@code default} clock's settings changed (its configuration at a start differed from what the journal
     * knew). A change of mode happens only while it holds no timer and no delivery; its time restarts then.
     */
    record ClockConfigured(ClockSettings settings) implements Mutation {
    }

    /**
     * A scaled clock's rate changed: from now on its time is {@code time} of the wall clock, anchored where the clock
     * stood. (A scaled clock's first function is anchored at its {@link ClockCreated}: its wall time and now.)
     */
    record RateChanged(ScaledTime time) implements Mutation {
    }

    /**
     * {@code key}'s flow-control override became {@code override} at {@code now} (null: deleted, the clock's per-key
     * limits apply to it again); its bucket keeps the whole tokens it held then.
     */
    record FlowKeyChanged(String key, io.timeservice.model.FlowOverride override, long now) implements Mutation {
    }

    /**
     * A live clock's settings changed at its time {@code now} ({@link io.timeservice.model.ClockChange}: paused or
     * resumed, a retry policy, clock-wide flow limits, a push target): its clock bucket is retuned at {@code now}.
     */
    record ClockChanged(ClockSettings settings, long now) implements Mutation {
    }

    // ---- deliveries (clocks that queue what fires) ----

    /** Every lease ended by {@code now} expired and every retry due by {@code now} became ready. */
    record DeliveriesSettled(long now) implements Mutation {
    }

    /**
     * The first {@code claims.size()} ready deliveries were leased at {@code now} for {@code leaseMillis}, one claim
     * token each, in order (after settling by {@code now}, recorded before this when it moved anything).
     */
    record Claimed(long now, long leaseMillis, List<String> claims) implements Mutation {

        public Claimed {
            claims = List.copyOf(claims);
        }
    }

    /**
     * Under flow control: the ready deliveries {@code sequences} were leased at {@code now} for {@code leaseMillis},
     * in that order, one claim token each. The record names them because which ones a claim takes depends on the
     * round robin's turn and the token buckets, which a snapshot does not keep.
     */
    record FlowClaimed(long now, long leaseMillis, List<String> claims, List<Long> sequences) implements Mutation {

        public FlowClaimed {
            claims = List.copyOf(claims);
            sequences = List.copyOf(sequences);
            if (claims.size() != sequences.size()) {
                throw new IllegalArgumentException(claims.size() + " claims for " + sequences.size() + " deliveries");
            }
        }
    }

    /** The delivery leased by {@code claim} was acknowledged and left the queue. */
    record Acked(String claim) implements Mutation {
    }

    /** The deliveries leased by {@code claims} (distinct) were acknowledged together, in order. */
    record AckedAll(List<String> claims) implements Mutation {

        public AckedAll {
            claims = List.copyOf(claims);
        }
    }

    /**
     * The delivery leased by {@code claim} was given back at {@code now}: ready again at {@code retryAt} with one more
     * attempt, or dead after its last one.
     */
    record Nacked(String claim, long now, long retryAt) implements Mutation {
    }

    /** The delivery leased by {@code claim} went to the dead letters at once, for {@code reason} (a push's 410). */
    record Rejected(String claim, String reason) implements Mutation {
    }

    /** The lease {@code claim} was extended at {@code now} to end {@code leaseMillis} later. */
    record Extended(String claim, long now, long leaseMillis) implements Mutation {
    }

    /** The dead deliveries {@code sequences} were redriven: ready at {@code now} from attempt 1. */
    record Redriven(long now, List<Long> sequences) implements Mutation {

        public Redriven {
            sequences = List.copyOf(sequences);
        }
    }

    /** The dead deliveries {@code sequences} were deleted. */
    record DeadDeleted(List<Long> sequences) implements Mutation {

        public DeadDeleted {
            sequences = List.copyOf(sequences);
        }
    }

    /** After a restart at {@code now}, every lease in flight at the crash starts again for its full length. */
    record LeasesRenewed(long now) implements Mutation {
    }

    /** The clock whose record this is was deleted, with every timer it held. */
    record ClockDeleted() implements Mutation {
    }

    /**
     * An atomic batch: its parts ({@link Added}, {@link Edited} and {@link Cancelled} only) were accepted together
     * and are replayed in order. One record, so a torn batch is wholly absent.
     */
    record Batch(List<Mutation> parts) implements Mutation {

        public Batch {
            parts = List.copyOf(parts);
        }
    }

    /**
     * A batch across clocks ({@code TimerStore#batchAcross}): each part one clock's {@link Batch} as an
     * {@link OnClock} of its number (0 for the default clock, here alone tagged too), accepted together under every
     * part's clock's lock. One record, so a torn one is wholly absent on every clock.
     */
    record AcrossClocks(List<OnClock> parts) implements Mutation {

        public AcrossClocks {
            parts = List.copyOf(parts);
        }
    }

    /**
     * A change of a clock's schedules ({@link ClockSchedules}): each record carries the call's arguments, the
     * clock's now and wall time, and the sequence its first occurrence timer takes (later ones count on from it), so
     * replay repeats the call exactly.
     */
    sealed interface ScheduleChange extends Mutation {
    }

    /** A schedule was created or replaced with {@code spec} as given (resolved again against {@code now}). */
    record SchedulePut(String id, ScheduleSpec spec, long now, long wallMillis, long sequence)
            implements ScheduleChange {
    }

    record ScheduleDeleted(String id) implements ScheduleChange {
    }

    record SchedulePaused(String id) implements ScheduleChange {
    }

    record ScheduleResumed(String id, long now, long wallMillis, long sequence) implements ScheduleChange {
    }

    record ScheduleTriggered(String id, long now, long wallMillis, long sequence) implements ScheduleChange {
    }

    /**
     * A firing step of a clock with schedules: the due timers by {@code now} in firing order, at most
     * {@code maxPops} of them (fired or skipped), each occurrence's successor added after each fireTime's timers, its
     * sequence counting on from {@code firstSequence}. Stands for {@link Advanced} and {@link AdvancedFiring} on such
     * a clock, in one record, so an occurrence and its successor are never apart.
     */
    record ScheduledFiring(long now, int maxPops, long firstSequence, long wallMillis) implements ScheduleChange {
    }
}
