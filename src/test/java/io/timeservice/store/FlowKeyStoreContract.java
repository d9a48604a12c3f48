package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import io.timeservice.model.ClockSnapshot;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRate;
import io.timeservice.model.FlowRules;
import org.junit.jupiter.api.Test;

/**
 * The contract of overrides for one key (issue 44: {@code PUT/GET/DELETE /clocks/{c}/flow/keys/{key}}) and of the
 * busiest keys, on every store that keeps them (today the memory store; the PostgreSQL store refuses them,
 * PostgresFlowRefusalTest).
 */
public abstract class FlowKeyStoreContract extends FlowContractSupport {

    protected final FlowKeyStore flowKeys() {
        return stores().flowKeys();
    }

    private static FlowOverride concurrency(int concurrency) {
        return new FlowOverride(concurrency, null);
    }

    @Test
    void anOverride_replacesTheClocksLimits_forItsKeyAlone() {
        flowClock("f", perKey(1, null, null));
        ready("f", "a", "a", 3);
        ready("f", "b", "b", 3);

        assertThat(flowKeys().put("f", "a", concurrency(3))).as("new").isTrue();
        assertThat(flowKeys().put("f", "a", concurrency(3))).as("replaced").isFalse();
        advance("f", 10);

        assertThat(claimIds("f", 10)).containsExactly("a0", "b0", "a1", "a2");
        assertThat(flowKeys().get("f", "a")).isEqualTo(concurrency(3));
    }

    @Test
    void anOverride_liftsAHeldKey_andItsDeletionHoldsItAgain() {
        flowClock("f", perKey(1, null, null));
        ready("f", "a", "a", 3);
        advance("f", 10);
        List<Delivery> first = deliveries().claim("f", 10, 1_000, 0);
        assertThat(first).extracting(Delivery::id).containsExactly("a0");
        assertThat(claimIds("f", 10)).isEmpty();

        flowKeys().put("f", "a", concurrency(2));
        List<Delivery> second = deliveries().claim("f", 10, 1_000, 0);
        assertThat(second).extracting(Delivery::id).containsExactly("a1");
        flowKeys().delete("f", "a");
        deliveries().ack("f", "a0", first.get(0).claim());
        assertThat(claimIds("f", 10)).as("a1 still holds the clock's one slot").isEmpty();
        deliveries().ack("f", "a1", second.get(0).claim());
        assertThat(claimIds("f", 10)).containsExactly("a2");
        assertRefused(() -> flowKeys().get("f", "a"), ErrorCode.FLOW_KEY_NOT_FOUND,
                "the clock has no override for key a");
    }

    @Test
    void anOverridesRate_isSteppedExactly_andKeepsTheTokensHeld() {
        flowClock("f", perKey(null, new FlowRate(2, 1_000), null));
        flowKeys().put("f", "fast", new FlowOverride(null, new FlowRate(1, 100)));
        ready("f", "fast", "x", 5);
        ready("f", "a", "a", 5);
        advance("f", 10);

        assertThat(claimIds("f", 10)).containsExactly("x0", "a0", "a1"); // a bucket of 1 for fast, 2 for a
        advance("f", 99);
        assertThat(claimIds("f", 10)).isEmpty();
        advance("f", 1);
        assertThat(claimIds("f", 10)).containsExactly("x1");

        flowKeys().put("f", "a", new FlowOverride(null, new FlowRate(10, 1_000))); // a's bucket was empty
        assertThat(claimIds("f", 10)).as("the override keeps the tokens held: none").isEmpty();
        advance("f", 100);
        assertThat(claimIds("f", 10)).containsExactlyInAnyOrder("x2", "a2");
    }

    @Test
    void theBusiestKeys_areListedWithTheirDeliveriesAndLimits() {
        flowClock("f", perKey(2, null, null));
        FlowOverride cOverride = new FlowOverride(5, new FlowRate(10, 1_000));
        flowKeys().put("f", "c", cOverride);
        ready("f", "a", "a", 5);
        ready("f", "b", "b", 3);
        ready("f", "c", "c", 1);
        advance("f", 10);
        assertThat(claimIds("f", 10)).containsExactly("a0", "b0", "c0", "a1", "b1");

        assertThat(flowKeys().busiest("f", 2)).containsExactly(
                new FlowKeyState("a", 3, 2, 3, 2, null, null, null),
                new FlowKeyState("b", 1, 2, 1, 2, null, null, null));
        assertThat(flowKeys().busiest("f", 10)).extracting(FlowKeyState::key).containsExactly("a", "b", "c");
        assertThat(flowKeys().busiest("f", 10).get(2))
                .isEqualTo(new FlowKeyState("c", 0, 1, 0, 5, new FlowRate(10, 1_000), 9L, cOverride));
        assertThat(flowKeys().busiest(Q, 10)).as("a clock without flow control").isEmpty();
    }

    @Test
    void overrides_outOfRange_withoutFlowControl_orMissing_areRefused_andNothingChanges() {
        flowClock("f", perKey(1, null, null));
        assertRefused(() -> flowKeys().put(Q, "a", concurrency(1)), ErrorCode.INVALID_REQUEST, "overrides for one"
                + " key are for a clock with flow control: create it with flow, clockConcurrency or clockRate");
        assertRefused(() -> flowKeys().put("f", "a", new FlowOverride(null, null)), ErrorCode.INVALID_REQUEST,
                "an override names concurrency, rate or both: {\"concurrency\": 2}");
        assertRefused(() -> flowKeys().put("f", "a", concurrency(0)), ErrorCode.INVALID_REQUEST,
                "concurrency must be between 1 and 1000000, got 0");
        assertRefused(() -> flowKeys().put("f", "a", new FlowOverride(null, new FlowRate(1, 0))),
                ErrorCode.INVALID_REQUEST, "rate.period must be between 1 and 86400000, got 0");
        assertRefused(() -> flowKeys().put("f", "a b", concurrency(1)), ErrorCode.INVALID_REQUEST,
                "key may contain only A-Z a-z 0-9 . _ - ~ :, found U+0020 at position 1");
        assertRefused(() -> flowKeys().put("nope", "a", concurrency(1)), ErrorCode.CLOCK_NOT_FOUND,
                "no clock is named nope");
        assertRefused(() -> flowKeys().delete("f", "a"), ErrorCode.FLOW_KEY_NOT_FOUND,
                "the clock has no override for key a");
        assertRefused(() -> flowKeys().get(Q, "a"), ErrorCode.FLOW_KEY_NOT_FOUND,
                "the clock has no override for key a");
        assertThat(clocks().snapshot("f").settings().flow().keys()).isEmpty();
    }

    @Test
    void overrides_areBoundedPerClock() {
        flowClock("f", perKey(1, null, null));
        for (int i = 0; i < FlowRules.MAX_KEY_OVERRIDES; i++) {
            flowKeys().put("f", "k" + i, concurrency(2));
        }

        assertRefused(() -> flowKeys().put("f", "one-more", concurrency(2)), ErrorCode.FLOW_KEY_LIMIT,
                "the clock holds its limit of 1000 keys with an override: delete one first");
        assertThat(flowKeys().put("f", "k0", concurrency(3))).as("a replacement is no new key").isFalse();
        flowKeys().delete("f", "k1");
        assertThat(flowKeys().put("f", "one-more", concurrency(2))).isTrue();
    }

    @Test
    void overrides_goWithAForkAndASnapshot_andAClocksPutIgnoresThem() {
        FlowLimits flow = perKey(1, null, null);
        flowClock("f", flow);
        flowKeys().put("f", "a", concurrency(4));

        clocks().copy("fork", "f");
        ClockSnapshot saved = clocks().snapshot("f");
        clocks().load("loaded", saved);

        assertThat(saved.settings().flow().keys()).containsExactly(Map.entry("a", concurrency(4)));
        for (String clock : List.of("fork", "loaded")) {
            assertThat(flowKeys().get(clock, "a")).as(clock).isEqualTo(concurrency(4));
        }
        assertThat(clocks().create("f", 0, QUEUE.withFlow(flow)).created()).as("the same settings again").isFalse();
        assertThat(clocks().get("f").settings().flow().keys()).containsKey("a");
    }
}
