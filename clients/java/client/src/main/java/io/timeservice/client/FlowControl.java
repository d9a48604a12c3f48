package io.timeservice.client;

import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A clock's flow control ({@link ClockOptions#flow}): limits on the deliveries handed out per key (a timer's
 * {@link AddOptions#key}; the timers without one share the empty key) and for the clock as a whole. A ready delivery
 * whose key or clock is at its concurrency or out of rate tokens is held back, never lost; claims take the other
 * keys' deliveries instead, round robin over the keys. Immutable; each method answers a new value:
 * {@code FlowControl.perKey().concurrency(5).rate(FlowRate.of(100, Duration.ofMinutes(1)))}. A member left unset sets
 * no limit; the service checks the ranges (docs/FLOW-CONTROL.md).
 */
public final class FlowControl {

    private final Integer concurrency;
    private final FlowRate rate;
    private final Integer burst;
    private final Integer clockConcurrency;
    private final FlowRate clockRate;

    private FlowControl(Integer concurrency, FlowRate rate, Integer burst, Integer clockConcurrency,
                        FlowRate clockRate) {
        this.concurrency = concurrency;
        this.rate = rate;
        this.burst = burst;
        this.clockConcurrency = clockConcurrency;
        this.clockRate = clockRate;
    }

    /** No limit yet: add them with the methods below. */
    public static FlowControl perKey() {
        return new FlowControl(null, null, null, null, null);
    }

    /** At most {@code n} deliveries of one key in flight at once. */
    public FlowControl concurrency(int n) {
        return new FlowControl(n, rate, burst, clockConcurrency, clockRate);
    }

    /** Each key's rate. */
    public FlowControl rate(FlowRate perKey) {
        return new FlowControl(concurrency, Objects.requireNonNull(perKey, "perKey"), burst, clockConcurrency,
                clockRate);
    }

    /** The size of each key's token bucket (default the rate's limit); only with a {@link #rate}. */
    public FlowControl burst(int tokens) {
        return new FlowControl(concurrency, rate, tokens, clockConcurrency, clockRate);
    }

    /** At most {@code n} deliveries of the whole clock in flight at once. */
    public FlowControl clockConcurrency(int n) {
        return new FlowControl(concurrency, rate, burst, n, clockRate);
    }

    /** The whole clock's rate. */
    public FlowControl clockRate(FlowRate whole) {
        return new FlowControl(concurrency, rate, burst, clockConcurrency, Objects.requireNonNull(whole, "whole"));
    }

    /** Writes {@code flow}, {@code clockConcurrency} and {@code clockRate} into a clock's settings. */
    void putInto(ObjectNode settings) {
        if (concurrency != null || rate != null || burst != null) {
            ObjectNode flow = settings.putObject("flow");
            if (concurrency != null) {
                flow.put("concurrency", concurrency);
            }
            if (rate != null) {
                flow.set("rate", rate.json());
            }
            if (burst != null) {
                flow.put("burst", burst);
            }
        }
        if (clockConcurrency != null) {
            settings.put("clockConcurrency", clockConcurrency);
        }
        if (clockRate != null) {
            settings.set("clockRate", clockRate.json());
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FlowControl that && Objects.equals(concurrency, that.concurrency)
                && Objects.equals(rate, that.rate) && Objects.equals(burst, that.burst)
                && Objects.equals(clockConcurrency, that.clockConcurrency) && Objects.equals(clockRate, that.clockRate);
    }

    @Override
    public int hashCode() {
        return Objects.hash(concurrency, rate, burst, clockConcurrency, clockRate);
    }

    @Override
    public String toString() {
        ObjectNode json = Json.object();
        putInto(json);
        return "FlowControl" + json;
    }
}
