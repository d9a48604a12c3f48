package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link TimerPageContract} on the memory store. */
class MemoryTimerPageContractTest extends TimerPageContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
