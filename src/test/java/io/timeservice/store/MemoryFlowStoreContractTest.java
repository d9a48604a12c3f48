package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link FlowStoreContract} on the memory store. */
class MemoryFlowStoreContractTest extends FlowStoreContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
