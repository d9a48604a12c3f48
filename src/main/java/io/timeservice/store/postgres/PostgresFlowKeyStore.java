package io.timeservice.store.postgres;

import java.util.List;

import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowOverride;
import io.timeservice.store.FlowKeyStore;

/** The PostgreSQL store's flow-control keys: {@link PostgresFlowKeys} for the clock a path names. */
public final class PostgresFlowKeyStore implements FlowKeyStore {

    private final PostgresFlowKeys keys;

    public PostgresFlowKeyStore(PostgresStore store) {
        this.keys = store.flowKeys();
    }

    @Override
    public boolean put(String clock, String key, FlowOverride override) {
        return keys.put(PostgresTimerStore.named(clock), key, override);
    }

    @Override
    public FlowOverride get(String clock, String key) {
        return keys.get(PostgresTimerStore.named(clock), key);
    }

    @Override
    public void delete(String clock, String key) {
        keys.delete(PostgresTimerStore.named(clock), key);
    }

    @Override
    public List<FlowKeyState> busiest(String clock, int n) {
        return keys.busiest(PostgresTimerStore.named(clock), n);
    }
}
