package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link FlowKeyStoreContract} on the memory store. */
class MemoryFlowKeyStoreContractTest extends FlowKeyStoreContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
