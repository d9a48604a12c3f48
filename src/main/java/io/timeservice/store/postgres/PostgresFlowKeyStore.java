package io.timeservice.store.postgres;

import java.util.List;

import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRules;
import io.timeservice.store.FlowKeyStore;

/**
 * The PostgreSQL store's flow-control keys: not kept yet (issue 44), so every call is refused with
 * {@code invalid_request} ({@link FlowRules#overridesNotStored}) and nothing changes, as keys and flow settings are.
 */
public final class PostgresFlowKeyStore implements FlowKeyStore {

    @Override
    public boolean put(String clock, String key, FlowOverride override) {
        throw FlowRules.overridesNotStored();
    }

    @Override
    public FlowOverride get(String clock, String key) {
        throw FlowRules.overridesNotStored();
    }

    @Override
    public void delete(String clock, String key) {
        throw FlowRules.overridesNotStored();
    }

    @Override
    public List<FlowKeyState> busiest(String clock, int n) {
        throw FlowRules.overridesNotStored();
    }
}
