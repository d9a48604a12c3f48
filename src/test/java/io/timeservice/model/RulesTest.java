package io.timeservice.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RulesTest {

    @Test
    void saturatedAdd_addsExactlyBelowTheEnd_andStopsAtLongMaxValue() {
        assertThat(Rules.saturatedAdd(0, 0)).isZero();
        assertThat(Rules.saturatedAdd(1, 1)).isEqualTo(2);
        assertThat(Rules.saturatedAdd(1_000_000_000_000_000L, Limits.MAX_LEASE_MILLIS))
                .isEqualTo(1_000_000_000_000_000L + Limits.MAX_LEASE_MILLIS);
        assertThat(Rules.saturatedAdd(Long.MAX_VALUE - 10, 10)).isEqualTo(Long.MAX_VALUE);
        assertThat(Rules.saturatedAdd(Long.MAX_VALUE - 10, 11)).isEqualTo(Long.MAX_VALUE);
        assertThat(Rules.saturatedAdd(Long.MAX_VALUE - 10_000_000, Limits.MAX_LEASE_MILLIS)).isEqualTo(Long.MAX_VALUE);
        assertThat(Rules.saturatedAdd(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(Rules.saturatedAdd(Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(-1);
    }

    @Test
    void saturatedAdd_refusesANegativeDuration() {
        assertThatThrownBy(() -> Rules.saturatedAdd(5, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }
}
