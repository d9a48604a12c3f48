package io.timeservice.store;

import io.timeservice.store.memory.MemoryContractStores;

/** {@link DeliveryStoreContract} on the memory store. */
class MemoryDeliveryStoreContractTest extends DeliveryStoreContract {

    @Override
    protected Stores open(Stores.Limits limits) {
        return MemoryContractStores.open(limits);
    }
}
