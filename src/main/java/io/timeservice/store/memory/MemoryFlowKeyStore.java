package io.timeservice.store.memory;

import java.util.List;

import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowOverride;
import io.timeservice.store.FlowKeyStore;

/** The memory store's flow-control keys: {@link ClockRegistry} and {@link ClockFlowKeys} as they are. */
public final class MemoryFlowKeyStore implements FlowKeyStore {

    private final ClockRegistry clocks;

    public MemoryFlowKeyStore(ClockRegistry clocks) {
        this.clocks = clocks;
    }

    @Override
    public boolean put(String clock, String key, FlowOverride override) {
        return clocks.putFlowKey(clock, key, override);
    }

    @Override
    public FlowOverride get(String clock, String key) {
        return clocks.scheduler(clock).flowKey(key);
    }

    @Override
    public void delete(String clock, String key) {
        clocks.deleteFlowKey(clock, key);
    }

    @Override
    public List<FlowKeyState> busiest(String clock, int n) {
        return clocks.scheduler(clock).busiestFlowKeys(n);
    }
}
