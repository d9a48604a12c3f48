package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.function.Consumer;

import io.timeservice.model.Ack;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.SchedulerException;
import io.timeservice.store.DeliveryStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A delivery call with bad input is refused in the same order on both stores: an unknown clock first, then the input,
 * then a clock that does not queue. (The PostgreSQL store decides all three in the call's one transaction, which
 * reads the clock once.)
 */
class DeliveryRefusalOrderTest {

    private static final ClockSettings RESPONSE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.RESPONSE, RetryPolicy.DEFAULT);

    @ParameterizedTest
    @ValueSource(strings = {"memory", "postgres"})
    void anUnknownClockComesFirst_thenTheInput_thenAClockThatDoesNotQueue(String store) {
        try (BothStores stores = new BothStores(store, DeliveryRefusalOrderTest.class, 100)) {
            stores.clocks.create("answers", 0, RESPONSE);
            List<Ack> noAcks = List.of();

            for (String clock : new String[] {"nowhere", "answers"}) {
                ErrorCode expected = clock.equals("nowhere") ? ErrorCode.CLOCK_NOT_FOUND : null;
                assertThat(refusal(stores.deliveries, d -> d.claim(clock, 0, 1_000, 0)))
                        .isEqualTo(expected != null ? expected : ErrorCode.INVALID_LIMIT);
                assertThat(refusal(stores.deliveries, d -> d.claim(clock, 1, 1_000, -1)))
                        .isEqualTo(expected != null ? expected : ErrorCode.INVALID_REQUEST);
                assertThat(refusal(stores.deliveries, d -> d.ackAll(clock, noAcks)))
                        .isEqualTo(expected != null ? expected : ErrorCode.INVALID_REQUEST);
                assertThat(refusal(stores.deliveries, d -> d.extend(clock, "a", "c", -5)))
                        .isEqualTo(expected != null ? expected : ErrorCode.INVALID_REQUEST);
                assertThat(refusal(stores.deliveries, d -> d.nack(clock, "a", "c", -5L)))
                        .isEqualTo(expected != null ? expected : ErrorCode.INVALID_REQUEST);
                assertThat(refusal(stores.deliveries, d -> d.claim(clock, 1, 1_000, 0)))
                        .isEqualTo(expected != null ? expected : ErrorCode.CLOCK_NOT_QUEUED);
                assertThat(refusal(stores.deliveries, d -> d.ack(clock, "a", "not a token")))
                        .isEqualTo(expected != null ? expected : ErrorCode.CLOCK_NOT_QUEUED);
            }
        }
    }

    private static ErrorCode refusal(DeliveryStore deliveries, Consumer<DeliveryStore> call) {
        SchedulerException refused = catchThrowableOfType(SchedulerException.class, () -> call.accept(deliveries));
        return refused == null ? null : refused.code();
    }
}
