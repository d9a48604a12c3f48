package io.timeservice.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A scaled clock's time as a function of the wall clock: exact for fractional rates, frozen at rate 0, saturated near
 * 2^63 - 1, and {@link ScaledTime#wallWhen} the exact inverse the firing thread waits on.
 */
class ScaledTimeTest {

    private static final long WALL = 1_700_000_000_000L;

    @Test
    void atRate60_aWallMinuteIsAnHour_fromTheAnchor() {
        ScaledTime time = new ScaledTime(WALL, 5_000, ClockRate.of(BigDecimal.valueOf(60)));
        assertThat(time.at(WALL)).isEqualTo(5_000);
        assertThat(time.at(WALL + 60_000)).isEqualTo(5_000 + 3_600_000);
        assertThat(time.at(WALL - 1)).as("before the anchor").isEqualTo(5_000);
        assertThat(time.wallWhen(5_000 + 3_600_000)).isEqualTo(WALL + 60_000);
        assertThat(time.wallWhen(5_001)).as("rounded up: the first wall ms that shows it").isEqualTo(WALL + 1);
        assertThat(time.wallWhen(4_000)).as("passed already").isEqualTo(WALL);
    }

    @Test
    void aFractionalRate_roundsDownToTheMillisecond() {
        ScaledTime half = new ScaledTime(WALL, 0, ClockRate.of(new BigDecimal("0.5")));
        assertThat(half.at(WALL + 1)).isZero();
        assertThat(half.at(WALL + 3)).isEqualTo(1);
        assertThat(half.wallWhen(1)).isEqualTo(WALL + 2);
        ScaledTime odd = new ScaledTime(WALL, 0, ClockRate.of(new BigDecimal("1.000001")));
        assertThat(odd.at(WALL + 1_000_000)).isEqualTo(1_000_001);
        assertThat(odd.at(WALL + 999_999)).isEqualTo(999_999);
    }

    @Test
    void rateZero_isFrozen_andNeverComesDue() {
        ScaledTime frozen = new ScaledTime(WALL, 42, new ClockRate(0));
        assertThat(frozen.at(WALL + 1_000_000_000)).isEqualTo(42);
        assertThat(frozen.at(Long.MAX_VALUE)).isEqualTo(42);
        assertThat(frozen.wallWhen(43)).isEqualTo(Long.MAX_VALUE);
        assertThat(frozen.wallWhen(42)).isEqualTo(WALL);
    }

    @Test
    void nearTheEndOfTime_theTimeSaturates_andNeverWraps() {
        long end = Limits.MAX_TIME;
        ClockRate fastest = new ClockRate(ClockRate.MAX * 1_000_000);
        ScaledTime nearTheEnd = new ScaledTime(WALL, end - 1_000, fastest);
        assertThat(nearTheEnd.at(WALL)).isEqualTo(end - 1_000);
        assertThat(nearTheEnd.at(WALL + 1)).isEqualTo(end);
        assertThat(nearTheEnd.at(Long.MAX_VALUE)).isEqualTo(end);
        assertThat(nearTheEnd.wallWhen(end)).isEqualTo(WALL + 1);
        assertThat(nearTheEnd.wallWhen(end + 1)).as("past the end of time: never").isEqualTo(Long.MAX_VALUE);
        ScaledTime early = new ScaledTime(Long.MIN_VALUE + 5, 0, fastest);
        assertThat(early.at(Long.MAX_VALUE)).as("a wall span past 2^63 - 1").isEqualTo(end);
        ScaledTime slowest = new ScaledTime(Long.MAX_VALUE - 10, 0, new ClockRate(1));
        assertThat(slowest.wallWhen(1_000)).as("a wall time past 2^63 - 1").isEqualTo(Long.MAX_VALUE);
        ScaledTime pastTheEnd = new ScaledTime(WALL, Long.MAX_VALUE - 5, fastest); // no clock is: it stays
        assertThat(pastTheEnd.at(WALL + 1_000)).isEqualTo(Long.MAX_VALUE - 5);
    }

    @Test
    void randomFunctions_matchExactArithmetic_andWallWhenIsTheExactInverse() {
        long seed = Long.getLong("seed", 20_261_204L); // fixed, so every run checks the same cases; -Dseed=N for others
        Random random = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            long millionths = random.nextInt(4) == 0 ? random.nextInt(2_000_000)
                    : (long) (random.nextDouble() * ClockRate.MAX * 1_000_000);
            long anchorClock = random.nextBoolean() ? random.nextLong(Limits.MAX_DELAY)
                    : Limits.MAX_TIME - random.nextLong(1L << 40);
            long elapsed = random.nextBoolean() ? random.nextLong(1L << 36) : random.nextLong(Long.MAX_VALUE - WALL);
            ScaledTime time = new ScaledTime(WALL, anchorClock, new ClockRate(millionths));
            BigInteger exact = BigInteger.valueOf(anchorClock).add(BigInteger.valueOf(elapsed)
                    .multiply(BigInteger.valueOf(millionths)).divide(BigInteger.valueOf(1_000_000)));
            long expected = exact.min(BigInteger.valueOf(Limits.MAX_TIME)).longValue();
            long shown = time.at(WALL + elapsed);
            assertThat(shown).as("seed %d, rate %d millionths, anchor %d, elapsed %d", seed, millionths,
                    anchorClock, elapsed).isEqualTo(expected);
            long when = time.wallWhen(shown);
            if (millionths > 0 && shown > anchorClock) {
                assertThat(time.at(when)).as("seed %d", seed).isGreaterThanOrEqualTo(shown);
                assertThat(time.at(when - 1)).as("seed %d: one wall ms earlier it is not there yet", seed)
                        .isLessThan(shown);
            }
        }
    }

    @Test
    void aRate_isExact_toSixDecimalPlaces_andOutOfRangeIsRefused() {
        assertThat(ClockRate.of(new BigDecimal("0.000001")).millionths()).isEqualTo(1);
        assertThat(ClockRate.of(new BigDecimal("100000")).millionths()).isEqualTo(100_000_000_000L);
        assertThat(ClockRate.of(new BigDecimal("2.50")).value()).isEqualTo(2.5);
        assertThat(ClockRate.of(new BigDecimal("1E+2")).millionths()).isEqualTo(100_000_000);
        assertThat(ClockRate.of(new BigDecimal("0.1")).toString()).isEqualTo("0.1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "-0.000001", "100000.000001", "1E+6", "0.0000001", "1.1234567"})
    void aRate_outOfRangeOrTooFine_isRefusedAsInvalidRequest(String rate) {
        assertThatThrownBy(() -> ClockRate.of(new BigDecimal(rate))).isInstanceOfSatisfying(ProblemException.class,
                refused -> assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_REQUEST));
    }

    @Test
    void theSettings_ofAScaledClock_needARate_andOnlyThey() {
        ClockRate rate = new ClockRate(1_000_000);
        assertThat(ClockSettings.of(ClockSettings.Mode.SCALED, null, null, rate).delivery())
                .isEqualTo(ClockSettings.DeliveryMode.QUEUE);
        assertThatThrownBy(() -> ClockSettings.of(ClockSettings.Mode.SCALED, null, null, null))
                .isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> ClockSettings.of(ClockSettings.Mode.SYSTEM, null, null, rate))
                .isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> ClockSettings.of(ClockSettings.Mode.SCALED, ClockSettings.DeliveryMode.RESPONSE,
                null, rate)).isInstanceOf(ProblemException.class);
    }
}
