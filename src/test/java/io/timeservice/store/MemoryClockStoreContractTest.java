package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link ClockStoreContract} on the memory store. */
class MemoryClockStoreContractTest extends ClockStoreContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
