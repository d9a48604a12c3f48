package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockView;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Precondition;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.SchedulerException;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link io.timeservice.store.ClockStore#copy} through the ports, on the memory store and on PostgreSQL alike: what
 * the copy holds, that the same seeded operations then fire the same timers in the same order on source and copy,
 * and the refusals. (Sequences are compared by order only: the PostgreSQL copy takes fresh ones.)
 */
class ForkOnBothStoresTest {

    /** No jitter: retry times do not depend on sequences, which PostgreSQL renumbers in a copy. */
    private static final ClockSettings QUEUE = new ClockSettings(ClockSettings.Mode.VIRTUAL,
            ClockSettings.DeliveryMode.QUEUE, new RetryPolicy(3, 400, 2.0, 3_000, 0.0));

    @ParameterizedTest
    @ValueSource(strings = {"memory", "postgres"})
    void aCopy_holdsTheSourcesTimeTimersAndDeliveries_andThenFiresAlike(String store) {
        try (BothStores stores = new BothStores(store, ForkOnBothStoresTest.class, 10_000)) {
            stores.clocks.create("src", 100, QUEUE);
            stores.timers.add("src", "a", 10, 0, "{\"p\":1}", Trace.NONE);
            stores.timers.add("src", "b", 10, -1, null, Trace.NONE);
            stores.timers.add("src", "c", 500, 0, null, Trace.NONE);
            stores.timers.edit("src", "c", 400L, null, Precondition.NONE, Trace.NONE);   // version 2
            stores.timers.advance("src", 10L, null, 1000, Trace.NONE);
            stores.deliveries.claim("src", 1, 1_000, 0);                                // b in flight

            ClockView copy = stores.clocks.copy("dst", "src").clock();

            assertThat(copy.status().now()).isEqualTo(110);
            assertThat(copy.settings()).isEqualTo(QUEUE);
            assertThat(withoutSequences(stores.timers.firstN("dst", 100).timers()))
                    .isEqualTo(withoutSequences(stores.timers.firstN("src", 100).timers()));
            assertThat(stores.timers.get("dst", "c").version()).isEqualTo(2);
            assertThat(stores.deliveries.counts("dst").ready()).isEqualTo(2);           // a, and b again
            assertThat(stores.deliveries.counts("src").inFlight()).isEqualTo(1);
            List<Delivery> claimed = stores.deliveries.claim("dst", 10, 1_000, 0);
            // both ready at 110 (a since it fired, b since the fork), so in firing order: b's priority is lower
            assertThat(claimed).extracting(Delivery::id, Delivery::attempt).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("b", 1), org.assertj.core.groups.Tuple.tuple("a", 1));
            for (Delivery delivery : claimed) {
                stores.deliveries.ack("dst", delivery.id(), delivery.claim());
            }
            stores.deliveries.ack("src", "a", stores.deliveries.claim("src", 1, 1_000, 0).get(0).claim());

            long seed = 7;
            Random left = new Random(seed);
            Random right = new Random(seed);
            List<String> sourceFired = new ArrayList<>();
            List<String> copyFired = new ArrayList<>();
            for (int step = 0; step < 200; step++) {
                sourceFired.add(step(stores, "src", left));
                copyFired.add(step(stores, "dst", right));
            }
            assertThat(copyFired).isEqualTo(sourceFired);
        }
    }

    /** One random add, cancel or advance; what it fired, as ids and fire times. */
    private static String step(BothStores stores, String clock, Random random) {
        int op = random.nextInt(10);
        String id = "t" + random.nextInt(8);
        try {
            if (op < 5) {
                stores.timers.add(clock, id, random.nextInt(300), random.nextInt(3), null, Trace.NONE);
                return "added";
            } else if (op < 6) {
                stores.timers.cancel(clock, id, Precondition.NONE, Trace.NONE);
                return "cancelled";
            }
            return stores.timers.advance(clock, (long) random.nextInt(200), null, 1 + random.nextInt(3), Trace.NONE)
                    .fired().stream().map(t -> t.id() + "@" + t.fireTime()).toList().toString();
        } catch (SchedulerException refused) {
            return refused.code().toString();
        }
    }

    private static List<String> withoutSequences(List<Timer> timers) {
        return timers.stream().map(t -> t.id() + "@" + t.fireTime() + "/" + t.priority() + " v" + t.version() + " "
                + t.payload() + " created " + t.createdAt()).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "postgres"})
    void aCopy_isRefused_forAMissingSource_anExistingName_andWhenItDoesNotFit(String store) {
        try (BothStores stores = new BothStores(store, ForkOnBothStoresTest.class, 5)) {
            stores.clocks.create("s", 0, ClockSettings.VIRTUAL);
            for (String id : List.of("x", "y", "z")) {
                stores.timers.add("s", id, 1, 0, null, Trace.NONE);
            }
            assertRefused(() -> stores.clocks.copy("c", "missing"), ErrorCode.CLOCK_NOT_FOUND);
            assertRefused(() -> stores.clocks.copy("s", "default"), ErrorCode.CLOCK_CONFLICT);
            assertRefused(() -> stores.clocks.copy("c", "s"), ErrorCode.CAPACITY_EXCEEDED);   // 3 + 3 > 5
            assertRefused(() -> stores.clocks.get("c"), ErrorCode.CLOCK_NOT_FOUND);
            stores.timers.cancel("s", "z", Precondition.NONE, Trace.NONE);
            assertThat(stores.clocks.copy("c", "s").clock().status().size()).isEqualTo(2);
        }
    }

    private static void assertRefused(Runnable call, ErrorCode code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(SchedulerException.class,
                e -> assertThat(e.code()).isEqualTo(code));
    }
}
