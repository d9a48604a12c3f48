package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.ScheduleSpec;
import org.junit.jupiter.api.Test;

/**
 * The contract of a schedule's flow-control key (issue 44): each occurrence (scheduled, caught up in one advance,
 * successor, triggered), its delivery, a fork and a snapshot carry it; on both stores.
 */
public abstract class ScheduleKeyStoreContract extends FlowContractSupport {

    private static ScheduleSpec everySecond(String key) {
        return new ScheduleSpec(null, 1_000L, null, null, null, null, 0, null, ScheduleSpec.CatchUp.ALL, false, null,
                key);
    }

    @Test
    void aSchedulesKey_goesWithEachOccurrence_itsDelivery_aForkAndASnapshot() {
        flowClock("f", perKey(1, null, null));
        schedules().put("f", "s", everySecond("tenant-1"), null);
        ready("f", "other", "o", 1);

        assertThat(schedules().get("f", "s").spec().key()).isEqualTo("tenant-1");
        assertThat(timers().get("f", "s:1000").key()).isEqualTo("tenant-1");
        advance("f", 2_000); // s:1000 and s:2000 fire; the key's concurrency of 1 holds s:2000 back
        assertThat(deliveries().claim("f", 10, 10_000, 0)).extracting(Delivery::id, Delivery::key).containsExactly(
                org.assertj.core.groups.Tuple.tuple("o0", "other"),
                org.assertj.core.groups.Tuple.tuple("s:1000", "tenant-1"));
        assertThat(timers().get("f", "s:3000").key()).as("the successor").isEqualTo("tenant-1");
        assertThat(deliveries().list("f", DeliveryFilter.all(Delivery.State.READY), 10, Long.MIN_VALUE))
                .as("caught up in the same advance, held back by the key").extracting(Delivery::id, Delivery::key)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("s:2000", "tenant-1"));

        clocks().copy("fork", "f");
        clocks().load("loaded", clocks().snapshot("f"));
        for (String clock : List.of("fork", "loaded")) {
            assertThat(schedules().get(clock, "s").spec().key()).as(clock).isEqualTo("tenant-1");
            assertThat(timers().get(clock, "s:3000").key()).as(clock).isEqualTo("tenant-1");
        }
        advance("f", 500);
        assertThat(schedules().trigger("f", "s").key()).as("a triggered occurrence").isEqualTo("tenant-1");
        schedules().put("f", "s", everySecond(null), null);
        assertThat(timers().get("f", "s:3000").key()).as("a replace without a key").isNull();
    }

    @Test
    void aSchedulesKeyBreakingTheIdRules_isRefused() {
        assertRefused(() -> schedules().put(Q, "s", everySecond("a b"), null), ErrorCode.INVALID_SCHEDULE,
                "key may contain only A-Z a-z 0-9 . _ - ~ :, found U+0020 at position 1");
        assertThat(schedules().list(Q)).isEmpty();
    }
}
