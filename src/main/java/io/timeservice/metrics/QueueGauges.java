package io.timeservice.metrics;

import java.util.function.DoubleBinaryOperator;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Schedule;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import io.timeservice.store.memory.MemoryScheduleStore;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Queue gauges over every clock, read at scrape time from each clock's {@link MemoryClock#status()}, which is
 * O(1): a scrape never walks a heap, and costs O(clocks). No gauge has a clock label (the number of clocks is
 * unbounded); per-clock figures are in {@code GET /clocks/{clock}}. Prometheus names: {@code timer_clocks{mode}} (clocks
 * that exist by mode, {@code default} included; a few modes, so a bounded label), {@code timer_clocks_paused}
 * (clocks whose deliveries a pause holds back), {@code timer_queue_depth} (pending timers over all clocks),
 * {@code timer_queue_oldest_age_seconds} (wall clock) and {@code timer_queue_oldest_age_virtual_seconds} (each
 * clock's virtual age, whose milliseconds it reports as seconds, the unit Prometheus names carry): the largest over
 * all clocks, 0 when no timer is pending; {@code timer_dedupe_reservations} (ids reserved by dedupe windows over
 * all clocks, from the shared budget's counter); {@code timer_schedules{state}} (schedules over all clocks by state, an
 * O(schedules) count per scrape).
 *
 * <p>For the capacity and health alerts: {@code timer_queue_capacity} and {@code timer_queue_capacity_bytes} (the
 * configured limits, shared by all clocks), {@code timer_queue_payload_bytes} (id + payload bytes held over all
 * clocks, against the byte limit), {@code timer_queue_serving} (0 once any clock's scheduler stopped after a failure,
 * fail-stop) and {@code timer_queue_invariants_ok} (0 while any clock's last invariant report has a broken rule). The
 * invariant gauge reads {@link MemoryClock#invariants()}, the report health and {@code GET /queue/invariants}
 * share, so a scrape walks a heap only when it changed since the last walk, and within the same rate limit as every
 * other reader. Gauges a stopped scheduler cannot answer read NaN. A clock deleted during a scrape is left out.
 * The gauges read through this binder hold it strongly: Micrometer holds a gauge's object weakly by default, and a
 * binder nothing else holds would be collected and its gauges read NaN.
 */
public class QueueGauges implements MeterBinder {

    private final ClockRegistry clocks;
    private final LongSupplier wallClockMillis;

    @Autowired
    public QueueGauges(ClockRegistry clocks) {
        this(clocks, System::currentTimeMillis);
    }

    QueueGauges(ClockRegistry clocks, LongSupplier wallClockMillis) {
        this.clocks = clocks;
        this.wallClockMillis = wallClockMillis;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        MemoryClock anyClock = clocks.defaultScheduler(); // the limits are the shared budget's
        for (ClockSettings.Mode mode : ClockSettings.Mode.values()) {
            Gauge.builder("timer.clocks", this, gauges -> gauges.clocksWhere(settings -> settings.mode() == mode))
                    .description("Clocks by mode, default included (timeservice.clocks.max at most over all modes)")
                    .tag("mode", mode.name().toLowerCase(java.util.Locale.ROOT))
                    .strongReference(true)
                    .register(registry);
        }
        Gauge.builder("timer.clocks.paused", this, gauges -> gauges.clocksWhere(ClockSettings::paused))
                .description("Clocks paused by POST /clocks/{clock}/pause: their deliveries are held back until"
                        + " a resume")
                .strongReference(true)
                .register(registry);
        MemoryScheduleStore schedules = new MemoryScheduleStore(clocks);
        for (Schedule.State state : Schedule.State.values()) {
            Gauge.builder("timer.schedules", schedules, store -> store.count(state))
                    .description("Recurring schedules over all clocks, by state (active, paused, done);"
                            + " timeservice.schedules.max at most")
                    .tag("state", state.wire())
                    .strongReference(true)
                    .register(registry);
        }
        Gauge.builder("timer.dedupe.reservations", clocks.budget(), budget -> (double) budget.reservations())
                .description("Ids reserved by clocks' dedupe windows over all clocks"
                        + " (timeservice.dedupe.max-reservations at most for adds)")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.queue.depth", this, gauges -> gauges.overClocks(s -> s.status().size(), Double::sum))
                .description("Pending timers over all clocks")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.queue.oldest.age", this, gauges -> gauges.overClocks(gauges::oldestAgeSeconds, Math::max))
                .description("Wall-clock age of the longest-waiting pending timer of any clock")
                .baseUnit("seconds")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.queue.oldest.age.virtual", this,
                        gauges -> gauges.overClocks(QueueGauges::oldestAgeVirtualSeconds, Math::max))
                .description("Largest virtual-clock age of a pending timer over all clocks: its clock's now - its"
                        + " createdAt")
                .baseUnit("seconds")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.queue.capacity", anyClock, MemoryClock::capacity)
                .description("Most pending timers over all clocks (timeservice.capacity); an add beyond it gets"
                        + " capacity_exceeded")
                .register(registry);
        Gauge.builder("timer.queue.capacity.bytes", anyClock, MemoryClock::capacityBytes)
                .description("Most id + payload bytes all pending timers may hold (timeservice.capacity-bytes)")
                .register(registry);
        Gauge.builder("timer.queue.payload", this, gauges -> gauges.overClocks(MemoryClock::pendingBytes,
                        Double::sum))
                .description("Id + payload bytes the pending timers of all clocks hold, against"
                        + " timer_queue_capacity_bytes")
                .baseUnit("bytes")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.queue.serving", this, gauges -> gauges.overClocks(
                        s -> s.stoppedBecause() == null ? 1 : 0, Math::min))
                .description("1 while every clock's scheduler serves, 0 once one stopped after a failure (fail-stop"
                        + " until restart: every queue call answers 503 storage_unavailable)")
                .strongReference(true)
                .register(registry);
        Gauge.builder("timer.queue.invariants.ok", this,
                        gauges -> gauges.overClocks(s -> s.invariants().ok() ? 1 : 0, Math::min))
                .description("1 while every clock's heap held its four invariants at the last check, 0 when one"
                        + " is broken")
                .strongReference(true)
                .register(registry);
    }

    /** Clocks whose settings match: O(clocks), from each clock's settings (no lock taken). */
    private double clocksWhere(Predicate<ClockSettings> test) {
        int count = 0;
        for (ClockRegistry.Clock clock : clocks.all()) {
            if (test.test(clock.settings())) {
                count++;
            }
        }
        return count;
    }

    /**
     * {@code value} of every clock, combined; a clock deleted meanwhile is skipped, and a stopped scheduler (which
     * answers nothing) makes the whole value NaN.
     */
    private double overClocks(ToDoubleFunction<MemoryClock> value, DoubleBinaryOperator combine) {
        double combined = Double.NaN;
        for (ClockRegistry.Clock clock : clocks.all()) {
            double one;
            try {
                one = value.applyAsDouble(clock.scheduler());
            } catch (ProblemException refused) {
                if (refused.code() == ErrorCode.CLOCK_NOT_FOUND) {
                    continue;
                }
                return Double.NaN;
            }
            combined = Double.isNaN(combined) ? one : combine.applyAsDouble(combined, one);
        }
        return combined; // never NaN by emptiness: the default clock always exists
    }

    private double oldestAgeSeconds(MemoryClock scheduler) {
        Long created = scheduler.status().oldestCreatedAtWallMillis();
        return created == null ? 0 : Math.max(0, wallClockMillis.getAsLong() - created) / 1000.0;
    }

    private static double oldestAgeVirtualSeconds(MemoryClock scheduler) {
        QueueStatus status = scheduler.status();
        Long created = status.oldestCreatedAt();
        return created == null ? 0 : (status.now() - created) / 1000.0;
    }
}
