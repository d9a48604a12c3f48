package io.timeservice.model;

import java.util.Map;

/**
 * The rulebook's flow control: the ranges of a clock's {@link FlowLimits} and {@link FlowRate}s, which clocks take
 * them, and the refusals of both stores. Each message names the member and the offending value.
 */
public final class FlowRules {

    /** Most deliveries in flight a concurrency limit names (per key or per clock). */
    public static final int MAX_CONCURRENCY = 1_000_000;
    /** Most tokens per period a rate names, and the largest burst. */
    public static final long MAX_RATE_LIMIT = 1_000_000;
    /** Longest period of a rate: one day of the clock's time. */
    public static final long MAX_PERIOD_MILLIS = 86_400_000;
    /**
     * Most keys with an override on one clock: the overrides are part of the clock's settings, which a journal
     * snapshot, a fork and a snapshot document carry whole, and an override's change copies (O(k)).
     */
    public static final int MAX_KEY_OVERRIDES = 1_000;
    /** Most keys {@code ?busiest=N} lists; the default is {@value #DEFAULT_BUSIEST}. */
    public static final int MAX_BUSIEST = 100;
    public static final int DEFAULT_BUSIEST = 10;

    private FlowRules() {
    }

    /**
     * Refuses limits out of range ({@code invalid_request}): concurrencies 1 to {@value #MAX_CONCURRENCY}, rates
     * 1 to {@value #MAX_RATE_LIMIT} per 1 to {@value #MAX_PERIOD_MILLIS} ms, a burst 1 to {@value #MAX_RATE_LIMIT}
     * and only with a rate; flow control is for a clock whose fired timers are deliveries ({@code queues}).
     */
    public static void require(FlowLimits flow, boolean queues) {
        if (flow == null) {
            return;
        }
        if (!queues) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "flow, clockConcurrency and clockRate are for a"
                    + " clock whose fired timers are deliveries: delivery \"queue\" or \"push\"");
        }
        requireConcurrency(flow.concurrency(), "flow.concurrency");
        requireRate(flow.rate(), "flow.rate");
        if (flow.burst() != null) {
            if (flow.rate() == null) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "flow.burst is the size of each key's rate"
                        + " bucket: it needs flow.rate");
            }
            requireRange(flow.burst(), 1, MAX_RATE_LIMIT, "flow.burst");
        }
        requireConcurrency(flow.clockConcurrency(), "clockConcurrency");
        requireRate(flow.clockRate(), "clockRate");
        requireKeys(flow);
    }

    /**
     * The overrides of single keys a clock's flow control holds ({@code flowKeys} in a snapshot document): at most
     * {@value #MAX_KEY_OVERRIDES}, each key by the id rules and each override as {@link #requireOverride} checks it,
     * and only beside a limit of the clock's own (they are changes to it).
     */
    private static void requireKeys(FlowLimits flow) {
        if (flow.keys().isEmpty()) {
            return;
        }
        if (flow.concurrency() == null && flow.rate() == null && flow.clockConcurrency() == null
                && flow.clockRate() == null) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "flowKeys override the clock's flow control: they"
                    + " need flow, clockConcurrency or clockRate");
        }
        if (flow.keys().size() > MAX_KEY_OVERRIDES) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "flowKeys holds at most " + MAX_KEY_OVERRIDES
                    + " keys, got " + flow.keys().size());
        }
        for (Map.Entry<String, FlowOverride> key : flow.keys().entrySet()) {
            TimerRules.requireValidKey(key.getKey());
            requireMembers(key.getValue(), "flowKeys." + key.getKey() + ".");
        }
    }

    /**
     * Refuses an override for {@code key} on a clock with {@code settings} ({@code invalid_request}): a key by the id
     * rules, a concurrency or a rate (or both) in range, and a clock with flow control; and a new override past
     * {@value #MAX_KEY_OVERRIDES} ({@code flow_key_limit}).
     */
    public static void requireOverride(ClockSettings settings, String key, FlowOverride override) {
        TimerRules.requireValidKey(key);
        requireMembers(override, "");
        FlowLimits flow = requireFlow(settings);
        if (!flow.keys().containsKey(key) && flow.keys().size() >= MAX_KEY_OVERRIDES) {
            throw new ProblemException(ErrorCode.FLOW_KEY_LIMIT, "the clock holds its limit of " + MAX_KEY_OVERRIDES
                    + " keys with an override: delete one first");
        }
    }

    /** An override's members, each named after {@code prefix}: one at least, each in range. */
    private static void requireMembers(FlowOverride override, String prefix) {
        if (override.concurrency() == null && override.rate() == null) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, (prefix.isEmpty() ? "an override"
                    : prefix.substring(0, prefix.length() - 1)) + " names concurrency, rate or both: {\"concurrency\": 2}");
        }
        requireConcurrency(override.concurrency(), prefix + "concurrency");
        requireRate(override.rate(), prefix + "rate");
    }

    /** The flow control of a clock asked about its keys' overrides; {@code invalid_request} when it has none. */
    public static FlowLimits requireFlow(ClockSettings settings) {
        if (settings.flow() == null) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "overrides for one key are for a clock with flow"
                    + " control: create it with flow, clockConcurrency or clockRate");
        }
        return settings.flow();
    }

    /** {@code key}'s override on a clock with {@code settings}; {@code flow_key_not_found} when it has none. */
    public static FlowOverride requireOverrideOf(ClockSettings settings, String key) {
        FlowOverride override = settings.flow() == null ? null : settings.flow().keys().get(key);
        if (override == null) {
            throw new ProblemException(ErrorCode.FLOW_KEY_NOT_FOUND, "the clock has no override for key " + key);
        }
        return override;
    }

    /**
     * Overrides for one key asked of a store that does not hold flow control yet (the PostgreSQL store):
     * {@code invalid_request}, and nothing changes.
     */
    public static ProblemException overridesNotStored() {
        return new ProblemException(ErrorCode.INVALID_REQUEST, "flow control (overrides for one key) is not"
                + " supported by the PostgreSQL store yet: use the memory store");
    }

    /** A concurrency limit named {@code member}: null, or 1 to {@value #MAX_CONCURRENCY}. */
    public static void requireConcurrency(Integer concurrency, String member) {
        if (concurrency != null) {
            requireRange(concurrency, 1, MAX_CONCURRENCY, member);
        }
    }

    /** A rate named {@code member}: null, or a limit and a period in range. */
    public static void requireRate(FlowRate rate, String member) {
        if (rate != null) {
            requireRange(rate.limit(), 1, MAX_RATE_LIMIT, member + ".limit");
            requireRange(rate.periodMillis(), 1, MAX_PERIOD_MILLIS, member + ".period");
        }
    }

    private static void requireRange(long value, long min, long max, String member) {
        if (value < min || value > max) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, member + " must be between " + min + " and " + max
                    + ", got " + value);
        }
    }
}
