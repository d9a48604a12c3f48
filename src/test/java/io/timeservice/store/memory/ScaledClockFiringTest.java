package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/**
 * Scaled clocks on a wall clock the test moves by hand, fired by the same firing thread as system clocks: their time
 * is the rate times the wall clock from their anchor, what they fire comes at the wall time their time gets there,
 * leases and retries run in their own time, a rate change is continuous and moves the wake-up, rate 0 freezes them.
 */
class ScaledClockFiringTest {

    private static final long LEASE = 60_000; // a clock minute: a wall second at rate 60
    private static final long TEN_HOURS = 36_000_000; // ten wall minutes at rate 60

    private final DeliveryTestClocks test = new DeliveryTestClocks();
    private final FiringLoop loop = new FiringLoop(test.wall::get, 1_000, 10_000);

    @Test
    void atRate60_aTimerDueInAnHour_firesAfterAWallMinute_inFiringOrder() {
        TimerScheduler clock = scaled("soak", 1_000, "60");
        long start = test.wall.get();
        assertThat(clock.now()).isEqualTo(1_000);
        clock.add("later", 7_200_000, 0, null, Trace.NONE);
        clock.add("low", 3_600_000, 5, null, Trace.NONE);
        clock.add("high", 3_600_000, 1, null, Trace.NONE);
        assertThat(loop.nextDeadline()).isEqualTo(start + 60_000);

        test.wall.set(start + 59_999);
        assertThat(loop.fireDue()).isZero();
        assertThat(clock.now()).isEqualTo(1_000 + 3_599_940);
        test.wall.set(start + 60_000);
        assertThat(loop.fireDue()).isEqualTo(2);
        assertThat(claimIds(clock)).containsExactly("high", "low");
        assertThat(loop.nextDeadline()).as("the next timer, before the leases just taken end")
                .isEqualTo(start + 120_000);
        test.wall.set(start + 120_000);
        assertThat(loop.fireDue()).isEqualTo(1);
        assertThat(claimIds(clock)).containsExactly("later");
    }

    @Test
    void leasesAndRetries_runInTheClocksOwnTime() {
        TimerScheduler clock = scaled("soak", 0, "60");
        long start = test.wall.get();
        clock.add("t", 0, 0, null, Trace.NONE);
        loop.fireDue();
        Delivery first = clock.claim(1, LEASE, 0).get(0);
        assertThat(first.leaseUntil()).isEqualTo(LEASE);
        assertThat(loop.nextDeadline()).as("a clock minute is a wall second").isEqualTo(start + 1_000);
        test.wall.set(start + 1_000);
        loop.fireDue(); // the lease ends; the retry comes 100 clock ms after it: 2 wall ms at rate 60
        assertThat(clock.deliveryCounts().waiting()).isEqualTo(1);
        assertThat(loop.nextDeadline()).isEqualTo(start + 1_000 + 2);
        test.wall.set(start + 1_002);
        loop.fireDue();
        assertThat(clock.claim(1, LEASE, 0).get(0).attempt()).isEqualTo(2);
    }

    @Test
    void aRateChange_isContinuous_andMovesTheWakeUp() {
        TimerScheduler clock = scaled("soak", 0, "10");
        long start = test.wall.get();
        clock.add("t", 100_000, 0, null, Trace.NONE);
        assertThat(loop.nextDeadline()).isEqualTo(start + 10_000);
        test.wall.set(start + 4_000);
        assertThat(clock.now()).isEqualTo(40_000);

        ClockSettings faster = test.clocks.rerate("soak", rate("100")).settings();
        assertThat(faster.rate()).isEqualTo(rate("100"));
        assertThat(clock.now()).as("continuous across the change").isEqualTo(40_000);
        assertThat(loop.nextDeadline()).as("60,000 clock ms to go at rate 100").isEqualTo(start + 4_000 + 600);
        test.wall.set(start + 4_599);
        assertThat(loop.fireDue()).isZero();
        assertThat(clock.now()).isEqualTo(99_900);
        test.wall.set(start + 4_600);
        assertThat(loop.fireDue()).isEqualTo(1);

        clock.add("u", 100_000, 0, null, Trace.NONE);
        test.clocks.rerate("soak", rate("0.5"));
        assertThat(loop.nextDeadline()).as("told at rate 100").isEqualTo(start + 4_600 + 1_000);
        test.wall.set(start + 5_600);
        assertThat(loop.fireDue()).as("a wake-up told at the faster rate costs a round that fires nothing").isZero();
        assertThat(loop.nextDeadline()).as("slower: later").isEqualTo(start + 4_600 + 200_000);
    }

    @Test
    void rateZero_freezesTheClock_untilTheNextRateChange() {
        TimerScheduler clock = scaled("soak", 0, "1000");
        long start = test.wall.get();
        clock.add("t", 10_000, 0, null, Trace.NONE);
        test.wall.set(start + 5);
        test.clocks.rerate("soak", rate("0"));
        test.wall.set(start + 10); // the wake-up told at rate 1000
        assertThat(loop.fireDue()).isZero();
        assertThat(loop.nextDeadline()).as("nothing to wait for").isEqualTo(Long.MAX_VALUE);
        test.wall.set(start + 3_600_000);
        assertThat(loop.fireDue()).isZero();
        assertThat(clock.now()).isEqualTo(5_000);
        assertThat(clock.add("u", 1, 0, null, Trace.NONE).fireTime()).isEqualTo(5_001);
        assertThat(loop.nextDeadline()).isEqualTo(Long.MAX_VALUE);

        test.clocks.rerate("soak", rate("1"));
        assertThat(loop.nextDeadline()).isEqualTo(start + 3_600_000 + 1);
        test.wall.set(start + 3_600_000 + 5_000);
        assertThat(loop.fireDue()).isEqualTo(2);
        assertThat(claimIds(clock)).containsExactly("u", "t");
    }

    @Test
    void nearTheEndOfTime_theClockSaturates_andStillFiresWhatIsDue() {
        TimerScheduler clock = scaled("end", Limits.MAX_DELAY, "100000");
        long start = test.wall.get();
        clock.add("last", Limits.MAX_DELAY, 0, null, Trace.NONE); // due at 2 * 10^15
        test.wall.set(start + Long.MAX_VALUE / 100_000); // far past the end of time, 2^53 - 1 clock milliseconds
        assertThat(clock.now()).isEqualTo(Limits.MAX_TIME);
        assertThat(loop.fireDue()).isEqualTo(1);
        assertThat(clock.add("at-the-end", 0, 0, null, Trace.NONE).fireTime()).isEqualTo(Limits.MAX_TIME);
        assertRefused(() -> clock.add("beyond", 1, 0, null, Trace.NONE), ErrorCode.INVALID_DELAY);
        assertThat(loop.fireDue()).isEqualTo(1);
        assertThat(claimIds(clock)).containsExactly("last", "at-the-end");
    }

    @Test
    void aWallClockStepBack_neverMovesTheClockBack() {
        TimerScheduler clock = scaled("soak", 0, "2");
        long start = test.wall.get();
        test.wall.set(start + 1_000);
        assertThat(clock.now()).isEqualTo(2_000);
        test.wall.set(start - 3_600_000);
        assertThat(clock.now()).isEqualTo(2_000);
        test.clocks.rerate("soak", rate("1")); // anchored at the latest reading, not at the function's value
        assertThat(clock.now()).isEqualTo(2_000);
        test.wall.set(start - 3_600_000 + 10);
        assertThat(clock.now()).isEqualTo(2_010);
    }

    @Test
    void aScaledClock_refusesAdvance_andOthersRefuseARateChange() {
        TimerScheduler clock = scaled("soak", 0, "60");
        assertRefused(() -> clock.advance(1_000, Trace.NONE), ErrorCode.CLOCK_NOT_VIRTUAL);
        assertRefused(() -> clock.advanceToNext(10, Trace.NONE), ErrorCode.CLOCK_NOT_VIRTUAL);
        test.create("virtual", DeliveryTestClocks.VIRTUAL_QUEUE);
        test.create("system", DeliveryTestClocks.SYSTEM_QUEUE);
        assertRefused(() -> test.clocks.rerate("virtual", rate("2")), ErrorCode.CLOCK_NOT_SCALED);
        assertRefused(() -> test.clocks.rerate("system", rate("2")), ErrorCode.CLOCK_NOT_SCALED);
        assertRefused(() -> test.clocks.rerate("nobody", rate("2")), ErrorCode.CLOCK_NOT_FOUND);
        assertThat(test.clocks.get("virtual").settings()).isEqualTo(DeliveryTestClocks.VIRTUAL_QUEUE);
    }

    @Test
    void put_isIdempotent_withTheSameNowAndTheCurrentRate() {
        scaled("soak", 1_000, "60");
        assertThat(test.clocks.create("soak", 1_000, settings("60")).created()).isFalse();
        assertRefused(() -> test.clocks.create("soak", 1_000, settings("61")), ErrorCode.CLOCK_CONFLICT);
        assertRefused(() -> test.clocks.create("soak", 0, settings("60")), ErrorCode.CLOCK_CONFLICT);
        test.clocks.rerate("soak", rate("120"));
        assertRefused(() -> test.clocks.create("soak", 1_000, settings("60")), ErrorCode.CLOCK_CONFLICT);
        assertThat(test.clocks.create("soak", 1_000, settings("120")).created()).isFalse();
    }

    @Test
    void aForkOfAScaledClock_runsOnTheSameFunction() {
        TimerScheduler source = scaled("soak", 0, "60");
        long start = test.wall.get();
        test.wall.set(start + 500);
        source.add("t", 60_000, 0, null, Trace.NONE);
        TimerScheduler copy = test.clocks.fork("copy", "soak").clock().scheduler();
        assertThat(copy.settings()).isEqualTo(source.settings());
        test.wall.set(start + 1_500);
        assertThat(copy.now()).isEqualTo(source.now()).isEqualTo(90_000);
        assertThat(loop.fireDue()).isEqualTo(2);
        assertThat(claimIds(copy)).containsExactly("t");
        assertThat(claimIds(source)).containsExactly("t");
    }

    private TimerScheduler scaled(String name, long now, String rate) {
        TimerScheduler clock = test.clocks.create(name, now, settings(rate)).clock().scheduler();
        test.clocks.fireWith(loop);
        loop.fireDue(); // the catch-up round every clock gets when firing starts
        return clock;
    }

    private static ClockSettings settings(String rate) {
        return ClockSettings.of(ClockSettings.Mode.SCALED, null, DeliveryTestClocks.QUICK_RETRIES, rate(rate));
    }

    private static ClockRate rate(String rate) {
        return ClockRate.of(new BigDecimal(rate));
    }

    private static List<String> claimIds(TimerScheduler clock) {
        return clock.claim(100, TEN_HOURS, 0).stream().map(Delivery::id).toList();
    }

    private static void assertRefused(Runnable call, ErrorCode code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ProblemException.class,
                refused -> assertThat(refused.code()).isEqualTo(code));
    }
}
