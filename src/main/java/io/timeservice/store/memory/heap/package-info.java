/**
 * One clock's timers in firing order: the indexed d-ary min-heap ({@code IndexedTimerHeap}) whose id index
 * ({@code IdIndex}, in {@code TimerRecords}) moves in lockstep with its array and also holds the ids reserved after
 * their timers left ({@code ReservedIds}, so an add makes one probe), the oldest pending timer
 * ({@code OldestPending}), walks in firing order ({@code FiringOrderWalk}), a frozen copy ({@code HeapImage}), the
 * slow check of its four invariants ({@code HeapInvariants}) and the steps a trace records ({@code HeapListener},
 * {@code TraceRecorder}). Knows nothing about threads, clocks or journals: the memory clock that owns a heap calls it
 * under its lock. Imports {@code model} only; public only what {@code store.memory} calls.
 */
package io.timeservice.store.memory.heap;
