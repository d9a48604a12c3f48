package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link TimerStoreContract} on the memory store. */
class MemoryTimerStoreContractTest extends TimerStoreContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
