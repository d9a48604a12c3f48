package io.timeservice.store.memory.journal;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.timeservice.model.Delivery;
import io.timeservice.store.memory.Mutation;
import io.timeservice.store.memory.RecoveredSnapshot;
import io.timeservice.store.memory.SavedDelivery;

/**
 * What {@link RecordCodec}'s decoder would refuse, stated once more for its encoder, so that a record the journal
 * could not read back is never written: the encoder asks {@link #refusal} before it frames a mutation.
 */
final class RecordRefusals {

    private RecordRefusals() {
    }

    /**
     * Why the decoder would refuse {@code mutation}'s body ({@code outermost}: not inside another record), or null
     * when it reads it back as it is. The decoder's checks, stated once more for the encoder; the codec's property
     * test holds the two to each other. The size of the whole record is checked when it is framed.
     */
    static String refusal(Mutation mutation, boolean outermost) {
        if (mutation instanceof Mutation.OnClock on) {
            if (!outermost || on.mutation() instanceof Mutation.ClockCreated
                    || on.mutation() instanceof Mutation.ClockForked || on.mutation() instanceof Mutation.ClockLoaded) {
                return "a clock's record cannot hold " + on.mutation() + (outermost ? "" : " inside another record");
            }
            return on.mutation() == null ? "a clock's record without a record" : refusal(on.mutation(), false);
        } else if (mutation instanceof Mutation.ClockCreated created) {
            return !outermost ? "a clock creation inside another record"
                    : created.settings() == null ? "a clock creation without settings" : null;
        } else if (mutation instanceof Mutation.ClockForked forked) {
            return !outermost ? "a clock's copy inside another record"
                    : forked.name() == null ? "a clock's copy without a name" : null;
        } else if (mutation instanceof Mutation.ClockLoaded loaded) {
            return !outermost ? "a loaded clock inside another record" : loadRefusal(loaded);
        } else if (mutation instanceof Mutation.ClockConfigured configured) {
            return configured.settings() == null ? "a settings change without settings" : null;
        } else if (mutation instanceof Mutation.ClockChanged changed) {
            return changed.settings() == null ? "a clock's change without settings" : null;
        } else if (mutation instanceof Mutation.FlowKeyChanged changed) {
            return changed.key() == null ? "a key's override without its key" : null;
        } else if (mutation instanceof Mutation.RateChanged changed) {
            return changed.time() == null ? "a rate change without its time" : null;
        } else if (mutation instanceof Mutation.Claimed claimed) {
            return claimsRefusal(claimed.claims());
        } else if (mutation instanceof Mutation.FlowClaimed claimed) {
            String refused = claimsRefusal(claimed.claims());
            return refused != null ? refused : countRefusal(claimed.sequences().size(), "sequences");
        } else if (mutation instanceof Mutation.AckedAll acked) {
            return claimsRefusal(acked.claims());
        } else if (mutation instanceof Mutation.Acked acked) {
            return claimRefusal(acked.claim());
        } else if (mutation instanceof Mutation.Nacked nacked) {
            return claimRefusal(nacked.claim());
        } else if (mutation instanceof Mutation.Extended extended) {
            return claimRefusal(extended.claim());
        } else if (mutation instanceof Mutation.Rejected rejected) {
            String refused = claimRefusal(rejected.claim());
            return refused != null ? refused : rejected.reason() == null ? "a rejection without its reason" : null;
        } else if (mutation instanceof Mutation.Redriven redriven) {
            return countRefusal(redriven.sequences().size(), "sequences");
        } else if (mutation instanceof Mutation.DeadDeleted deleted) {
            return countRefusal(deleted.sequences().size(), "sequences");
        } else if (mutation instanceof Mutation.ClockDeleted) {
            return outermost ? "a clock deletion outside a clock's record" : null;
        } else if (mutation instanceof Mutation.AdvancedFiring firing) {
            return firing.count() < 1 ? "a bounded advance fires " + firing.count() + " timers" : null;
        } else if (mutation instanceof Mutation.AcrossClocks across) {
            return outermost ? acrossRefusal(across) : "a batch across clocks inside another record";
        } else if (mutation instanceof Mutation.Batch batch) {
            if (batch.parts().isEmpty() || batch.parts().size() > RecordCodec.MAX_BATCH_PARTS) {
                return "a batch holds 1 to " + RecordCodec.MAX_BATCH_PARTS + " records, not " + batch.parts().size();
            }
            for (Mutation part : batch.parts()) {
                if (!TimerRecords.isBatchPart(part)) {
                    return "a batch cannot hold " + part;
                }
            }
            return null;
        } else if (mutation instanceof Mutation.Added added) {
            return added.timer() == null ? "an add without its timer" : null;
        } else if (mutation instanceof Mutation.ScheduleChange change) {
            return ScheduleRecords.refusal(change);
        }
        if (mutation instanceof Mutation.Replaced replaced) {
            return replaced.id() == null ? "a replace without its id" : null;
        }
        if (mutation instanceof Mutation.ReservationReleased released) {
            return released.id() == null ? "a release without its id" : null;
        }
        return mutation instanceof Mutation.Cancelled || mutation instanceof Mutation.Edited
                || mutation instanceof Mutation.Advanced || mutation instanceof Mutation.Reset
                || mutation instanceof Mutation.SequencesReserved || mutation instanceof Mutation.DeliveriesSettled
                || mutation instanceof Mutation.LeasesRenewed || mutation instanceof Mutation.Passed ? null
                : "unknown mutation " + mutation;
    }

    /**
     * What the decoder of a batch across clocks refuses: no part, a part that is not a batch or names a negative clock
     * or one named before, or more than {@link RecordCodec#MAX_BATCH_PARTS} records in all its batches (a request's
     * operations, as one batch's).
     */
    static String acrossRefusal(Mutation.AcrossClocks across) {
        if (across.parts().isEmpty()) {
            return "a batch across no clocks";
        }
        Set<Long> clocks = new HashSet<>();
        int records = 0;
        for (Mutation.OnClock part : across.parts()) {
            if (!(part.mutation() instanceof Mutation.Batch batch) || part.clock() < 0 || !clocks.add(part.clock())) {
                return "a batch across clocks holds " + part;
            }
            String refused = refusal(batch, false);
            if (refused != null) {
                return refused;
            }
            records += batch.parts().size();
        }
        return records > RecordCodec.MAX_BATCH_PARTS ? "a batch across clocks holds " + records + " records, more than "
                + RecordCodec.MAX_BATCH_PARTS : null;
    }

    /** What the decoder of a loaded clock refuses: a name, settings, timers and deliveries it can read back. */
    private static String loadRefusal(Mutation.ClockLoaded loaded) {
        RecoveredSnapshot snapshot = loaded.snapshot();
        if (loaded.name() == null || snapshot == null || snapshot.settings() == null) {
            return "a loaded clock without its name or settings";
        }
        for (Mutation.Added added : snapshot.timers()) {
            if (added.timer() == null || added.timer().id() == null) {
                return "a loaded clock's timer without its id";
            }
        }
        for (SavedDelivery saved : snapshot.deliveries()) {
            Delivery d = saved.delivery();
            if (!DeliveryRecords.readable(d.state().ordinal(), d.attempt(), d.claim(), d.id())) {
                return "a loaded clock's delivery the journal could not read back: " + d;
            }
        }
        for (io.timeservice.model.Schedule schedule : snapshot.schedules().schedules()) {
            if (schedule.id() == null || (schedule.spec().cron() == null) == (schedule.spec().every() == null)) {
                return "a loaded clock's schedule the journal could not read back: " + schedule.id();
            }
        }
        return null;
    }

    /** The mutation's lists cannot hold null (they are copies made by {@code List.copyOf}). */
    private static String claimsRefusal(List<String> claims) {
        return countRefusal(claims.size(), "claims");
    }

    private static String claimRefusal(String claim) {
        return claim == null ? "a record without its claim" : null;
    }

    /** A list holds at least one element; that it fits the record is checked when the record is framed. */
    static String countRefusal(int count, String what) {
        return count < 1 ? "a list of " + count + " " + what : null;
    }
}
