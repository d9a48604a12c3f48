package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.ClockView;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryCounts;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link ClockStore}, run against every store: create (idempotent, conflicts, names, the clock
 * limit), get, list, delete, settings, the copy of a clock (fork) and its refusals, the rate of a scaled clock (rate
 * 0 pauses it), snapshot and load; each refusal with its code and its text.
 */
public abstract class ClockStoreContract extends StoreContract {

    /** No jitter: retry times do not depend on sequences, which the PostgreSQL store renumbers in a copy. */
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 400, 2.0, 3_000, 0.0));
    private static final ClockSettings PAUSED_SCALED = ClockSettings.of(ClockSettings.Mode.SCALED,
            ClockSettings.DeliveryMode.QUEUE, RetryPolicy.DEFAULT, new ClockRate(0));

    @Test
    void create_makesAClockAtItsNow_andAgainWithTheSameSettingsFindsIt() {
        ClockView.Created created = clocks().create("c", 500, QUEUE);

        assertThat(created.created()).isTrue();
        assertThat(created.clock().name()).isEqualTo("c");
        assertThat(created.clock().status().now()).isEqualTo(500);
        assertThat(created.clock().status().size()).isZero();
        assertThat(created.clock().settings()).isEqualTo(QUEUE);
        ClockView.Created again = clocks().create("c", 500, QUEUE);
        assertThat(again.created()).isFalse();
        assertThat(again.clock().settings()).isEqualTo(QUEUE);
        assertThat(clocks().get("c").settings()).isEqualTo(QUEUE);
        assertThat(clocks().get("c").status().now()).isEqualTo(500);
        assertThat(timers().add("c", "a", 5, 0, null, Trace.NONE).fireTime()).isEqualTo(505);
    }

    @Test
    void create_isRefused_forOtherSettings_aBadName_andAtTheClockLimit() {
        reopen(Stores.Limits.ROOMY.withMaxClocks(2));
        clocks().create("c", 500, QUEUE);

        assertRefused(() -> clocks().create("c", 501, QUEUE), ErrorCode.CLOCK_CONFLICT,
                "clock c exists, created at now=500, not 501");
        assertRefused(() -> clocks().create("c", 500, ClockSettings.VIRTUAL), ErrorCode.CLOCK_CONFLICT,
                "clock c exists with other settings: mode virtual, delivery queue, " + QUEUE.retry());
        assertRefused(() -> clocks().create("a b", 0, QUEUE), ErrorCode.INVALID_ID,
                "id may contain only A-Z a-z 0-9 . _ - ~ :, found U+0020 at position 1");
        assertRefused(() -> clocks().create("x".repeat(Limits.MAX_CLOCK_NAME_LENGTH + 1), 0, QUEUE),
                ErrorCode.INVALID_ID, "a clock name must be 1 to " + Limits.MAX_CLOCK_NAME_LENGTH
                        + " characters long, got " + (Limits.MAX_CLOCK_NAME_LENGTH + 1));
        assertRefused(() -> clocks().create("d", 0, QUEUE), ErrorCode.CLOCK_LIMIT,
                "the service holds its limit of 2 clocks (timeservice.clocks.max); delete one first");
        assertRefused(() -> clocks().get("d"), ErrorCode.CLOCK_NOT_FOUND, "no clock is named d");
        clocks().delete("c");
        assertThat(clocks().create("d", 0, QUEUE).created()).isTrue();
    }

    @Test
    void theCapacity_countsTheTimersOfEveryClock_andADeletedClockGivesItsTimersBack() {
        reopen(Stores.Limits.ROOMY.withCapacity(3, 10_000).withMaxClocks(2));
        clocks().create("one", 0, ClockSettings.VIRTUAL);
        assertRefused(() -> clocks().create("two", 0, ClockSettings.VIRTUAL), ErrorCode.CLOCK_LIMIT,
                "the service holds its limit of 2 clocks (timeservice.clocks.max); delete one first");
        timers().add(null, "a", 5, 0, null, Trace.NONE);
        timers().add("one", "b", 5, 0, null, Trace.NONE);
        timers().add("one", "c", 5, 0, null, Trace.NONE);

        assertRefused(() -> timers().add(null, "d", 5, 0, null, Trace.NONE), ErrorCode.CAPACITY_EXCEEDED,
                "the queue holds its capacity of 3 pending timers");
        clocks().delete("one");
        clocks().create("two", 0, ClockSettings.VIRTUAL);
        timers().add(null, "d", 5, 0, null, Trace.NONE);
        timers().add("two", "e", 5, 0, null, Trace.NONE);

        assertThat(timers().status(null).size()).isEqualTo(2);
        assertRefused(() -> timers().add("two", "f", 5, 0, null, Trace.NONE), ErrorCode.CAPACITY_EXCEEDED,
                "the queue holds its capacity of 3 pending timers");
    }

    @Test
    void aQueueingClock_showsItsDeliveryCounts_andAClockThatAnswersFromAdvanceNone() {
        DeliveryCounts none = new DeliveryCounts(0, 0, 0, 0, null, false);
        assertThat(clocks().create("q", 0, QUEUE).clock().deliveries()).isEqualTo(none);
        clocks().create("plain", 0, ClockSettings.VIRTUAL);
        timers().add("q", "a", 0, 0, null, Trace.NONE);
        timers().advance("q", 0L, null, 10, Trace.NONE);

        assertThat(clocks().get("q").deliveries()).isEqualTo(new DeliveryCounts(1, 0, 0, 0, 0L, false));
        assertThat(clocks().get("plain").deliveries()).isNull();
        assertThat(clocks().list(10, null)).extracting(ClockView::name, view -> view.settings().delivery(),
                        ClockView::deliveries)
                .containsExactly(tuple("default", ClockSettings.DeliveryMode.RESPONSE, null),
                        tuple("plain", ClockSettings.DeliveryMode.RESPONSE, null),
                        tuple("q", ClockSettings.DeliveryMode.QUEUE, new DeliveryCounts(1, 0, 0, 0, 0L, false)));
    }

    /** The clocks page's schedules column: a clock's schedules counted (paused and done ones too), per clock. */
    @Test
    void aClock_showsHowManySchedulesItHas_inItsViewAndTheListing() {
        clocks().create("cron", 0, ClockSettings.VIRTUAL);
        ScheduleSpec every = new ScheduleSpec(null, 1_000L, null, null, null, null, 0, null, ScheduleSpec.CatchUp.ALL,
                false);
        for (String id : List.of("a", "b", "c")) {
            schedules().put("cron", id, every, null);
        }
        schedules().put("cron", "paused", every.withPaused(true), null);
        schedules().delete("cron", "b", null);

        assertThat(clocks().get("cron").schedules()).isEqualTo(3);
        assertThat(clocks().list(10, null)).extracting(ClockView::name, ClockView::schedules)
                .containsExactly(tuple("cron", 3), tuple("default", 0));
        clocks().delete("cron");
        clocks().create("cron", 0, ClockSettings.VIRTUAL);
        assertThat(clocks().get("cron").schedules()).isZero();
    }

    @Test
    void list_pagesByName_theDefaultClockIncluded() {
        for (String name : List.of("b", "a", "c")) {
            clocks().create(name, 0, ClockSettings.VIRTUAL);
        }

        assertThat(clocks().list(10, null)).extracting(ClockView::name).containsExactly("a", "b", "c", "default");
        assertThat(clocks().list(2, null)).extracting(ClockView::name).containsExactly("a", "b");
        assertThat(clocks().list(2, "b")).extracting(ClockView::name).containsExactly("c", "default");
        assertRefused(() -> clocks().list(0, null), ErrorCode.INVALID_LIMIT, "limit must be >= 1: 0");
        assertThat(clocks().list(2, "default")).isEmpty();
    }

    @Test
    void delete_removesTheClockWithItsTimersAndDeliveries_butNeverTheDefaultClock() {
        clocks().create("c", 0, QUEUE);
        timers().add("c", "a", 1, 0, null, Trace.NONE);
        timers().add("c", "b", 5, 0, null, Trace.NONE);
        timers().advance("c", 1L, null, 10, Trace.NONE);

        clocks().delete("c");

        assertRefused(() -> clocks().get("c"), ErrorCode.CLOCK_NOT_FOUND, "no clock is named c");
        assertRefused(() -> clocks().delete("c"), ErrorCode.CLOCK_NOT_FOUND, "no clock is named c");
        assertRefused(() -> clocks().delete("default"), ErrorCode.CLOCK_UNDELETABLE,
                "the clock default always exists and cannot be deleted");
        clocks().create("c", 0, QUEUE);
        assertThat(clocks().get("c").status().size()).as("a new clock of the name is empty").isZero();
        assertThat(deliveries().counts("c").total()).isZero();
    }

    @Test
    void aScaledClockAtRateZero_standsStill_andOnlyAScaledClockChangesRate() {
        ClockView created = clocks().create("s", 5_000, PAUSED_SCALED).clock();
        assertThat(created.settings().rate()).isEqualTo(new ClockRate(0));
        assertThat(created.status().now()).isEqualTo(5_000);
        timers().add("s", "a", 10, 0, null, Trace.NONE);

        ClockView rerated = clocks().rerate("s", new ClockRate(0));

        assertThat(rerated.status().now()).isEqualTo(5_000);
        assertThat(clocks().get("s").status().now()).isEqualTo(5_000);
        assertThat(timers().get("s", "a").fireTime()).isEqualTo(5_010);
        assertRefused(() -> timers().advance("s", 10L, null, 1, Trace.NONE), ErrorCode.CLOCK_NOT_VIRTUAL,
                "this clock runs on the wall clock scaled by its rate and fires by itself; only a virtual clock"
                        + " can be advanced");
        assertRefused(() -> clocks().rerate("default", new ClockRate(0)), ErrorCode.CLOCK_NOT_SCALED,
                "only a scaled clock (mode \"scaled\") has a rate to change; this one is virtual");
        assertRefused(() -> clocks().rerate("nowhere", new ClockRate(0)), ErrorCode.CLOCK_NOT_FOUND,
                "no clock is named nowhere");
    }

    @Test
    void aCopy_holdsTheSourcesTimeTimersAndDeliveries_andThenFiresAlike() {
        clocks().create("src", 100, QUEUE);
        timers().add("src", "a", 10, 0, "{\"p\":1}", Trace.NONE);
        timers().add("src", "b", 10, -1, null, Trace.NONE);
        timers().add("src", "c", 500, 0, null, Trace.NONE);
        timers().edit("src", "c", 400L, null, Precondition.NONE, Trace.NONE);   // version 2
        timers().advance("src", 10L, null, 1000, Trace.NONE);
        deliveries().claim("src", 1, 1_000, 0);                                   // b in flight

        ClockView.Created made = clocks().copy("dst", "src");
        ClockView copy = made.clock();

        assertThat(made.created()).isTrue();
        assertThat(copy.status().now()).isEqualTo(110);
        assertThat(copy.settings()).isEqualTo(QUEUE);
        assertThat(withoutSequences(timers().firstN("dst", 100).timers()))
                .isEqualTo(withoutSequences(timers().firstN("src", 100).timers()));
        assertThat(timers().get("dst", "c").version()).isEqualTo(2);
        assertThat(deliveries().counts("dst").ready()).isEqualTo(2);           // a, and b again
        assertThat(deliveries().counts("src").inFlight()).isEqualTo(1);
        List<Delivery> claimed = deliveries().claim("dst", 10, 1_000, 0);
        // both ready at 110 (a since it fired, b since the fork), so in firing order: b's priority is lower
        assertThat(claimed).extracting(Delivery::id, Delivery::attempt).containsExactly(tuple("b", 1), tuple("a", 1));
        for (Delivery delivery : claimed) {
            deliveries().ack("dst", delivery.id(), delivery.claim());
        }
        deliveries().ack("src", "a", deliveries().claim("src", 1, 1_000, 0).get(0).claim());

        Random left = new Random(7);
        Random right = new Random(7);
        List<String> sourceFired = new ArrayList<>();
        List<String> copyFired = new ArrayList<>();
        for (int step = 0; step < 200; step++) {
            sourceFired.add(step("src", left));
            copyFired.add(step("dst", right));
        }
        assertThat(copyFired).isEqualTo(sourceFired);
    }

    /** One random add, cancel or advance; what it fired, as ids and fire times. */
    private String step(String clock, Random random) {
        int op = random.nextInt(10);
        String id = "t" + random.nextInt(8);
        try {
            if (op < 5) {
                timers().add(clock, id, random.nextInt(300), random.nextInt(3), null, Trace.NONE);
                return "added";
            } else if (op < 6) {
                timers().cancel(clock, id, Precondition.NONE, Trace.NONE);
                return "cancelled";
            }
            return timers().advance(clock, (long) random.nextInt(200), null, 1 + random.nextInt(3), Trace.NONE)
                    .fired().stream().map(t -> t.id() + "@" + t.fireTime()).toList().toString();
        } catch (ProblemException refused) {
            return refused.code() + ": " + refused.getMessage();
        }
    }

    private static List<String> withoutSequences(List<Timer> timers) {
        return timers.stream().map(t -> t.id() + "@" + t.fireTime() + "/" + t.priority() + " v" + t.version() + " "
                + t.payload() + " created " + t.createdAt()).toList();
    }

    @Test
    void aCopy_isRefused_forAMissingSource_anExistingName_andWhenItDoesNotFit() {
        reopen(Stores.Limits.ROOMY.withCapacity(5, 10_000));
        clocks().create("s", 0, ClockSettings.VIRTUAL);
        for (String id : List.of("x", "y", "z")) {
            timers().add("s", id, 1, 0, null, Trace.NONE);
        }

        assertRefused(() -> clocks().copy("c", "missing"), ErrorCode.CLOCK_NOT_FOUND, "no clock is named missing");
        assertRefused(() -> clocks().copy("s", "default"), ErrorCode.CLOCK_CONFLICT,
                "clock s exists; a copy of default needs a new name");
        assertRefused(() -> clocks().copy("c", "s"), ErrorCode.CAPACITY_EXCEEDED,       // 3 + 3 > 5
                "the queue's capacity of 5 pending timers has no room for a copy of 3");
        assertRefused(() -> clocks().get("c"), ErrorCode.CLOCK_NOT_FOUND, "no clock is named c");
        timers().cancel("s", "z", Precondition.NONE, Trace.NONE);
        assertThat(clocks().copy("c", "s").clock().status().size()).isEqualTo(2);
    }

    @Test
    void aSnapshot_loadsIntoANewClock_thatSavesAsTheSame() {
        clocks().create("s", 40, QUEUE);
        timers().add("s", "a", 10, 1, "[1]", Trace.NONE);
        timers().add("s", "b", 20, 0, null, Trace.NONE);
        timers().advance("s", 10L, null, 10, Trace.NONE);
        ClockSnapshot saved = clocks().snapshot("s");

        ClockView loaded = clocks().load("t", saved).clock();

        assertThat(loaded.status().now()).isEqualTo(50);
        assertThat(loaded.status().size()).isEqualTo(1);
        ClockSnapshot again = clocks().snapshot("t");
        assertThat(again.timers()).isEqualTo(saved.timers());
        assertThat(again.deliveries()).isEqualTo(saved.deliveries());
        assertThat(again.settings()).isEqualTo(saved.settings());
        assertThat(again.now()).isEqualTo(saved.now());
        assertRefused(() -> clocks().load("t", saved), ErrorCode.CLOCK_CONFLICT,
                "clock t exists; a snapshot loads into a new name");
        assertRefused(() -> clocks().snapshot("nowhere"), ErrorCode.CLOCK_NOT_FOUND, "no clock is named nowhere");
    }
}
