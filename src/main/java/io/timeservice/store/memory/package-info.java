/**
 * The memory store, the embedded default: one {@link io.timeservice.store.memory.MemoryClock} per clock, whose
 * {@link io.timeservice.store.memory.ClockKernel} holds the one lock around the clock's heap (sub-package
 * {@code heap}) and time source (sub-package {@code time}, which also holds the firing thread of the system and
 * scaled clocks), with one class per job under that lock (timer changes and reads, firing, deliveries, schedules,
 * lifecycle); the registry of clocks ({@link io.timeservice.store.memory.ClockRegistry}) and the adapters to the
 * store ports. Durability is the journal in the sub-package {@code journal}. Imports {@code model}, {@code store}
 * and its sub-packages {@code heap} and {@code time}; no Spring, Micrometer or Jackson (checked by
 * {@code PlainJavaArchitectureTest}).
 */
package io.timeservice.store.memory;
