package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link ScheduleKeyStoreContract} on the memory store. */
class MemoryScheduleKeyStoreContractTest extends ScheduleKeyStoreContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
