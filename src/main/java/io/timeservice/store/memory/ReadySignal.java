package io.timeservice.store.memory;

import io.timeservice.store.LongPoll;

/**
 * Wakes long-polling claimers when a clock's ready queue gains deliveries. A claimer reads {@link #generation}
 * before it looks at the queue and then waits for it to change, so a delivery that became ready in between is never
 * missed. Waits run on the monotonic clock ({@link Object#wait(long, int)}), outside the clock's lock.
 */
final class ReadySignal implements LongPoll.Signal {

    private long generation;

    @Override
    public synchronized long generation() {
        return generation;
    }

    /** Something became ready (or the clock went away): every waiter looks again. */
    synchronized void signal() {
        generation++;
        notifyAll();
    }

    /** Waits until the generation moves past {@code seen} or {@code nanos} pass. */
    @Override
    public synchronized void awaitChange(long seen, long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        while (generation == seen) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            wait(left / 1_000_000, (int) (left % 1_000_000));
        }
    }
}
