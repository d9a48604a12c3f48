package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link ScheduleStoreContract} on the memory store. */
class MemoryScheduleStoreContractTest extends ScheduleStoreContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
