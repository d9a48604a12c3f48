package io.timeservice.model;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;

/**
 * A cron expression's local times as instants in a zone, by the service's DST rules: a local time in a gap
 * (spring forward) fires once, moved forward by the gap's length (02:30 becomes 03:30), and a local time in an
 * overlap (fall back) fires once, at its first instant. {@link ZonedDateTime#ofLocal} with no preferred offset maps
 * each local time exactly so. An occurrence moved onto another one's instant fires once, and instants come strictly
 * increasing.
 *
 * <p>Why the walk below: that mapping is monotone except in a gap. A local time L in a gap maps to
 * {@code L - offsetBefore}, which lies after the instants of the real local times just past the gap (02:59 moved
 * to 03:59 comes after a real 03:00). For a local time L that is not in a gap, every later local time maps later
 * (its first instant comes after L's first instant, since the local time reaches L first on its way there), so the
 * walk can stop at the first such L past {@code after}; until then it keeps the smallest instant past
 * {@code after}. It starts early enough that a moved gap time past {@code after} is seen: one gap's length before
 * {@code after}'s local time when {@code after} lies within that length past a gap.
 *
 * <p>Immutable and thread-safe.
 */
public final class ZonedRecurrence implements Recurrence {

    /** Local times one call reads at most: bounds a walk through a pathological zone; never reached in tzdata. */
    private static final int MAX_STEPS = 1_000_000;

    private final LocalRecurrence local;
    private final ZoneId zone;
    private final ZoneRules rules;

    public ZonedRecurrence(LocalRecurrence local, ZoneId zone) {
        this.local = local;
        this.zone = zone;
        this.rules = zone.getRules();
    }

    /**
     * {@inheritDoc} None after the end of time ({@link Limits#MAX_TIME}): a match lies at most a 400-year calendar
     * cycle after {@code after}, so every instant computed here stays far within a long of milliseconds.
     */
    @Override
    public long nextAfter(long after) {
        if (after >= Limits.MAX_TIME) {
            return NONE;
        }
        Instant afterInstant = Instant.ofEpochMilli(after);
        LocalDateTime from = LocalDateTime.ofInstant(afterInstant, zone);
        ZoneOffsetTransition previous = rules.previousTransition(afterInstant.plusMillis(1));
        if (previous != null && previous.isGap()
                && after - previous.toEpochSecond() * 1000 < previous.getDuration().toMillis()) {
            from = from.minus(previous.getDuration());
        }
        long best = NONE;
        LocalDateTime candidate = from;
        for (int step = 0; step < MAX_STEPS; step++) {
            candidate = local.nextAfter(candidate);
            if (candidate == null) {
                return best;
            }
            long instant = instantOf(candidate);
            if (instant > after) {
                best = best == NONE ? instant : Math.min(best, instant);
                if (!inGap(candidate)) {
                    return best;
                }
            }
        }
        return best;
    }

    /** The instant of local time {@code time} by the DST rules above, in epoch ms. */
    public long instantOf(LocalDateTime time) {
        return ZonedDateTime.ofLocal(time, zone, null).toInstant().toEpochMilli();
    }

    private boolean inGap(LocalDateTime time) {
        return rules.getValidOffsets(time).isEmpty();
    }
}
