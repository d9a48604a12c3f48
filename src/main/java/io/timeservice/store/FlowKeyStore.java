package io.timeservice.store;

import java.util.List;

import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.ProblemException;

/**
 * Single keys of a clock under flow control (issue 44): their overrides ({@code /clocks/{clock}/flow/keys/{key}}),
 * journaled on the memory store and carried by forks and snapshots as the clock's settings are, and the busiest keys.
 * Refusals are {@link ProblemException}s with the same codes on every store; the PostgreSQL store refuses every call
 * with {@code invalid_request} until it keeps flow control.
 */
public interface FlowKeyStore {

    /**
     * Sets {@code key}'s override on the clock: its members replace the clock's per-key limits for that key.
     *
     * @return whether the key had no override before (201) rather than one replaced (200)
     * @throws ProblemException {@code clock_not_found}; {@code invalid_request} for a bad key, an override without
     *                            members or out of range, or a clock without flow control; {@code flow_key_limit}
     *                            past {@link io.timeservice.model.FlowRules#MAX_KEY_OVERRIDES}
     */
    boolean put(String clock, String key, FlowOverride override);

    /** @throws ProblemException {@code clock_not_found}, {@code flow_key_not_found} */
    FlowOverride get(String clock, String key);

    /** @throws ProblemException {@code clock_not_found}, {@code flow_key_not_found} */
    void delete(String clock, String key);

    /**
     * Up to {@code n} keys (1 to {@link io.timeservice.model.FlowRules#MAX_BUSIEST}) holding the most deliveries,
     * ready and in flight, most first (ties by key), with the limits that apply to each; none on a clock without flow
     * control. Costs one pass over the clock's keys with deliveries, never over the deliveries.
     *
     * @throws ProblemException {@code clock_not_found}
     */
    List<FlowKeyState> busiest(String clock, int n);
}
