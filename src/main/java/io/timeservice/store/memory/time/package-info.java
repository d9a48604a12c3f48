/**
 * A memory clock's time: where its "now" comes from ({@code TimeSource}), a {@code VirtualClock} moved only by
 * advances, or a running clock that follows the wall clock and never moves back ({@code RunningClock}): a
 * {@code SystemClock}, or a {@code ScaledClock} at a rate times it; and the one thread that fires every running
 * clock's due timers on wall-clock time ({@code FiringLoop}), which each clock tells its next deadline
 * ({@code Wakeups}) and whose rounds it runs ({@code FiringRounds}). Imports {@code model} only; imported by
 * {@code store.memory}, and for the firing thread by {@code config} (which starts it) and {@code metrics} (its health
 * and lag).
 */
package io.timeservice.store.memory.time;
