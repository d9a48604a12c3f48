package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.timeservice.model.Delivery;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.ScheduleSpec.CatchUp;
import org.junit.jupiter.api.Test;

/**
 * Schedules on a system clock, its wall clock moved by hand: firing rounds fire occurrences on time, and after a gap
 * in firing (downtime) each schedule's catchUp decides which missed occurrences become deliveries.
 */
class SystemClockSchedulesTest {

    private static final long TEN_MINUTES = 600_000;

    private final DeliveryTestClocks test = new DeliveryTestClocks();
    private final MemoryClock jobs = test.create("jobs", DeliveryTestClocks.SYSTEM_QUEUE);
    private final MemoryScheduleStore schedules = new MemoryScheduleStore(test.clocks);

    @Test
    void afterDowntime_allFiresEveryMissedOccurrence_latestTheLastOne_noneNone() {
        long start = test.wall.get();
        for (CatchUp catchUp : CatchUp.values()) {
            schedules.put("jobs", catchUp.wire(), new ScheduleSpec(null, TEN_MINUTES, null, null, null, null, 0,
                    "{\"c\":\"" + catchUp.wire() + "\"}", catchUp, false), null);
        }

        test.wall.set(start + TEN_MINUTES + 50); // on time: every schedule fires its first occurrence
        jobs.fireRound(10_000);
        assertThat(claimedIds()).containsExactlyInAnyOrder("all:" + (start + TEN_MINUTES),
                "latest:" + (start + TEN_MINUTES), "none:" + (start + TEN_MINUTES));

        test.wall.set(start + 4 * TEN_MINUTES + 100_000); // down: 20, 30 and 40 min missed, the last 100 s late
        jobs.fireRound(10_000);

        assertThat(claimedIds()).containsExactlyInAnyOrder("all:" + (start + 2 * TEN_MINUTES),
                "all:" + (start + 3 * TEN_MINUTES), "all:" + (start + 4 * TEN_MINUTES),
                "latest:" + (start + 4 * TEN_MINUTES));
        assertThat(schedules.get("jobs", "latest").skipped()).isEqualTo(2);
        assertThat(schedules.get("jobs", "none").skipped()).isEqualTo(3);
        for (String id : List.of("all", "latest", "none")) {
            assertThat(schedules.get("jobs", id).next()).as(id).isEqualTo(start + 5 * TEN_MINUTES);
        }
    }

    @Test
    void aDeliveredOccurrence_namesItsSchedule_andBeyondMaxCatchUpTheRestIsSkipped() {
        jobs.scheduleWith(expression -> {
            throw new AssertionError("no cron here");
        }, 2);
        long start = test.wall.get();
        schedules.put("jobs", "tick", new ScheduleSpec(null, 1_000L, null, null, null, null, 0, null, CatchUp.ALL,
                false), null);

        test.wall.set(start + 10_500); // ten occurrences due, at most two fire in one round
        jobs.fireRound(10_000);

        List<Delivery> claimed = jobs.claim(100, 60_000, 0);
        assertThat(claimed).extracting(Delivery::id).containsExactly("tick:" + (start + 1_000),
                "tick:" + (start + 2_000));
        assertThat(claimed).extracting(Delivery::schedule).containsOnly("tick");
        assertThat(schedules.get("jobs", "tick").skipped()).isEqualTo(8);
        assertThat(schedules.get("jobs", "tick").next()).isEqualTo(start + 11_000);
    }

    private List<String> claimedIds() {
        List<Delivery> claimed = jobs.claim(100, 60_000, 0);
        for (Delivery delivery : claimed) {
            jobs.ack(delivery.id(), delivery.claim());
        }
        return claimed.stream().map(Delivery::id).toList();
    }
}
