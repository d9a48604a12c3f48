/**
 * The memory store, the embedded default: one {@link io.timeservice.store.memory.MemoryClock} per clock (a lock
 * around an indexed d-ary min-heap whose id index moves in lockstep with the array), the registry of clocks
 * ({@link io.timeservice.store.memory.ClockRegistry}), the delivery queues, the firing thread of the system and scaled
 * clocks, and the adapters to the store ports. Durability is the journal in the sub-package {@code journal}.
 * Imports {@code model} and {@code store} only; no Spring, Micrometer or Jackson (checked by
 * {@code PlainJavaArchitectureTest}).
 */
package io.timeservice.store.memory;
