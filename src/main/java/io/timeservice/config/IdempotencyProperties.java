package io.timeservice.config;

import java.time.Duration;

import io.timeservice.model.IdempotencyRules;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code timeservice.idempotency.*}: how long an {@code Idempotency-Key}'s answer is kept, and how many keys the
 * store holds at most (kept answers and running requests, over every clock and caller; beyond, a new key is
 * refused with 429 {@code idempotency_key_limit}).
 *
 * @param retention           how long an answer is kept after it was answered: 1 s to 7 days, 24 h by default
 * @param settlementRetention how long the answer to a delivery's settlement (ack, ack many, nack, extend) is kept:
 *                            1 s up to {@code retention}, 10 min by default. A settlement is repeated only by its
 *                            own client's retries within its lease, and a worker sends one key per settlement (the
 *                            Java client does), so keeping those answers a day would fill {@code maxKeys} with keys
 *                            nobody repeats
 * @param maxKeys             1 to 10,000,000, 100,000 by default
 */
@ConfigurationProperties("timeservice.idempotency")
public record IdempotencyProperties(@DefaultValue("24h") Duration retention,
                                    @DefaultValue("10m") Duration settlementRetention,
                                    @DefaultValue("100000") long maxKeys) {

    public IdempotencyProperties {
        if (retention.compareTo(Duration.ofSeconds(1)) < 0 || retention.compareTo(IdempotencyRules.MAX_RETENTION) > 0) {
            throw new IllegalArgumentException("timeservice.idempotency.retention must be between 1s and "
                    + IdempotencyRules.MAX_RETENTION.toDays() + "d, got " + retention);
        }
        if (settlementRetention.compareTo(Duration.ofSeconds(1)) < 0 || settlementRetention.compareTo(retention) > 0) {
            throw new IllegalArgumentException("timeservice.idempotency.settlement-retention must be between 1s and"
                    + " timeservice.idempotency.retention (" + retention + "), got " + settlementRetention);
        }
        if (maxKeys < 1 || maxKeys > 10_000_000) {
            throw new IllegalArgumentException("timeservice.idempotency.max-keys must be between 1 and 10000000, got "
                    + maxKeys);
        }
    }
}
