package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.SchedulerException;
import io.timeservice.model.Trace;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 41 item 10 at the port, on both stores: a clock's incarnation, and the pusher's claim that names it. A clock
 * deleted and created again under its name is another incarnation; a claim naming the one before is refused and
 * claims nothing, so the deliveries of the new clock are never sent with the settings read of the old one.
 */
class ClaimOfIncarnationTest {

    private static final ClockSettings PUSH = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.PUSH, RetryPolicy.DEFAULT, null,
            new PushTarget("http://127.0.0.1:9/old", 1_000, 4, Map.of(), List.of("old-secret")));

    @ParameterizedTest
    @ValueSource(strings = {"memory", "postgres"})
    void aClaimNamingTheClockBefore_isRefused_andTheNewClocksDeliveriesStay(String store) {
        try (BothStores both = new BothStores(store, ClaimOfIncarnationTest.class, 100)) {
            both.clocks.create("recycled", 0, PUSH);
            long before = both.clocks.get("recycled").incarnation();
            assertThat(both.clocks.get("recycled").incarnation()).as("the same clock, read again").isEqualTo(before);
            both.clocks.delete("recycled");
            both.clocks.create("recycled", 0, new ClockSettings(ClockSettings.Mode.VIRTUAL,
                    ClockSettings.DeliveryMode.QUEUE, RetryPolicy.DEFAULT, null, null));
            long after = both.clocks.get("recycled").incarnation();
            assertThat(after).isNotEqualTo(before);
            both.timers.add("recycled", "b", 0, 0, null, Trace.NONE);
            both.timers.advance("recycled", 0L, null, 100, Trace.NONE);

            assertThatThrownBy(() -> both.deliveries.claimOf("recycled", before, 10, 30_000))
                    .isInstanceOfSatisfying(SchedulerException.class,
                            refused -> assertThat(refused.code()).isEqualTo(ErrorCode.CLOCK_NOT_FOUND));
            assertThat(both.deliveries.counts("recycled").ready()).as("nothing was claimed").isEqualTo(1);
            assertThat(both.deliveries.claimOf("recycled", after, 10, 30_000)).extracting(Delivery::id)
                    .containsExactly("b");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "postgres"})
    void aClockMadeAgainAsPush_withTheSameSettings_isStillAnotherIncarnation(String store) {
        try (BothStores both = new BothStores(store, ClaimOfIncarnationTest.class, 100)) {
            both.clocks.create("recycled", 0, PUSH);
            long first = both.clocks.get("recycled").incarnation();
            both.clocks.delete("recycled");
            both.clocks.create("recycled", 0, PUSH);
            both.clocks.create("other", 0, PUSH);

            assertThat(List.of(first, both.clocks.get("recycled").incarnation(), both.clocks.get("other").incarnation()))
                    .doesNotHaveDuplicates();
            assertThatThrownBy(() -> both.deliveries.claimOf("recycled", first, 10, 30_000))
                    .isInstanceOf(SchedulerException.class);
        }
    }
}
