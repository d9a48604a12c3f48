package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link DedupeStoreContract} on the memory store. */
class MemoryDedupeStoreContractTest extends DedupeStoreContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
