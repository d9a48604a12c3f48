package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRules;

/**
 * A clock's overrides of single keys' flow control ({@link io.timeservice.model.FlowLimits#keys}): set, read and
 * deleted, journaled first ({@link Mutation.FlowKeyChanged}), and the busiest keys. An override is part of the clock's
 * settings, so a fork, a snapshot document and a journal snapshot carry it with them; its change reaches the ready
 * deliveries through {@link DeliveryQueue#flowKey}, live and in recovery alike ({@link #changed}).
 *
 * <p>Every call takes the clock's lock ({@link ClockKernel}).
 */
final class ClockFlowKeys {

    private final ClockKernel kernel;
    private final ClockDeliveries deliveries;

    ClockFlowKeys(ClockKernel kernel, ClockDeliveries deliveries) {
        this.kernel = kernel;
        this.deliveries = deliveries;
    }

    /** What a put did: the clock's settings after it, and whether the key had no override before. */
    record Put(ClockSettings settings, boolean created) {
    }

    /**
     * Sets {@code key}'s override, journaled first.
     *
     * @throws io.timeservice.model.ProblemException {@code invalid_request} (see {@link FlowRules#requireOverride}),
     *                                               {@code flow_key_limit}, {@code storage_unavailable}
     */
    Put put(String key, FlowOverride override) {
        Applied<Put> applied = kernel.serving(() -> {
            ClockSettings settings = kernel.settings();
            FlowRules.requireOverride(settings, key, override);
            kernel.log().requireWritable();
            boolean created = !settings.flow().keys().containsKey(key);
            Mutation.FlowKeyChanged change = new Mutation.FlowKeyChanged(key, override, kernel.clock().now());
            return kernel.commit(change, () -> new Put(apply(settings, change), created));
        });
        kernel.log().awaitDurable(applied.position());
        return applied.value();
    }

    /**
     * Deletes {@code key}'s override, journaled first: the clock's per-key limits apply to it again.
     *
     * @throws io.timeservice.model.ProblemException {@code flow_key_not_found}, {@code storage_unavailable}
     */
    ClockSettings delete(String key) {
        Applied<ClockSettings> applied = kernel.serving(() -> {
            ClockSettings settings = kernel.settings();
            FlowRules.requireOverrideOf(settings, key);
            kernel.log().requireWritable();
            Mutation.FlowKeyChanged change = new Mutation.FlowKeyChanged(key, null, kernel.clock().now());
            return kernel.commit(change, () -> apply(settings, change));
        });
        kernel.log().awaitDurable(applied.position());
        return applied.value();
    }

    /** {@code key}'s override; {@code flow_key_not_found} when it has none. */
    FlowOverride get(String key) {
        return kernel.serving(() -> FlowRules.requireOverrideOf(kernel.settings(), key));
    }

    /** The {@code n} busiest keys ({@link FlowReady#busiest}); none on a clock without flow control. */
    List<FlowKeyState> busiest(int n) {
        return kernel.serving(() -> kernel.deliveries().busiestKeys(n, kernel.clock().now()));
    }

    /** Applies a change decided and journaled; call only under the lock. */
    private ClockSettings apply(ClockSettings settings, Mutation.FlowKeyChanged change) {
        ClockSettings next = changed(settings, kernel.deliveries(), change);
        kernel.useSettings(next);
        deliveries.changed(); // a key under a raised limit may hand out now: wake long polls and the pusher
        return next;
    }

    /** The settings after {@code change}, which {@code queue} takes as well: live, and in a journal's replay. */
    static ClockSettings changed(ClockSettings settings, DeliveryQueue queue, Mutation.FlowKeyChanged change) {
        ClockSettings next = settings.withFlow(settings.flow().withKey(change.key(), change.override()));
        queue.flowKey(next.flow(), change.key(), change.now());
        return next;
    }
}
