package io.timeservice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** {@code timeservice.idempotency.*} as Spring binds it: the defaults, and the bounds of each setting. */
class IdempotencyPropertiesTest {

    private static IdempotencyProperties bind(java.util.Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("timeservice.idempotency", IdempotencyProperties.class);
    }

    @Test
    void byDefault_answersAreKeptADay_andSettlementsTenMinutes() {
        IdempotencyProperties defaults = bind(java.util.Map.of());

        assertThat(defaults.retention()).isEqualTo(Duration.ofHours(24));
        assertThat(defaults.settlementRetention()).isEqualTo(Duration.ofMinutes(10));
        assertThat(defaults.maxKeys()).isEqualTo(100_000);
    }

    @Test
    void aSettlementRetentionLongerThanTheRetention_orUnderASecond_isRefusedAtStart() {
        assertThatThrownBy(() -> bind(java.util.Map.of("timeservice.idempotency.retention", "1h",
                "timeservice.idempotency.settlement-retention", "2h")))
                .rootCause().hasMessageContaining("settlement-retention must be between 1s and"
                        + " timeservice.idempotency.retention (PT1H), got PT2H");
        assertThatThrownBy(() -> bind(java.util.Map.of("timeservice.idempotency.settlement-retention", "500ms")))
                .rootCause().hasMessageContaining("got PT0.5S");
        assertThat(bind(java.util.Map.of("timeservice.idempotency.retention", "1h",
                "timeservice.idempotency.settlement-retention", "1h")).settlementRetention())
                .isEqualTo(Duration.ofHours(1));
    }
}
