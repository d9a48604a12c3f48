package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link BatchAcrossClocksStoreContract} on the memory store. */
class MemoryBatchAcrossClocksStoreContractTest extends BatchAcrossClocksStoreContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
