package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link ClockChangeStoreContract} on the memory store. */
class MemoryClockChangeStoreContractTest extends ClockChangeStoreContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
