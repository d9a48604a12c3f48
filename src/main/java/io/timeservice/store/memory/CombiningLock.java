package io.timeservice.store.memory;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Mutual exclusion by flat combining: the thread that holds the lock also runs the actions other threads queued
 * meanwhile, then wakes their threads with the results.
 *
 * <p>Why not a plain lock: the clock's work under its lock takes about a microsecond, but with dozens of request
 * threads on two cores a {@link ReentrantLock} hands the lock from one parked thread to the next, and each hand-off
 * waits until the woken thread gets a CPU (JFR: parks of ~200 ms per add at 64 threads, docs/BENCHMARKS.md). Here a
 * queued action runs as soon as the holder reaches it; waiting threads are woken together, and none of them has to
 * be running for the next action to start.
 *
 * <p>Every action runs alone and to its end before the next starts, so actions are linearizable in the order they
 * run; queued actions run in arrival order. An action's exception is rethrown in the thread that submitted it.
 * Actions must not call this lock again.
 *
 * <p>Interrupts: a caller's action is queued and will run, so an interrupted caller still waits for it, parked as
 * usual; its interrupt status is cleared while it waits or runs actions (those may be other threads' actions, which
 * an interrupt meant for this thread must not reach, and {@link LockSupport#park} returns at once while it is set)
 * and set again before {@link #call} returns.
 */
final class CombiningLock {

    /** A holder serves at most this many queued actions before it hands the lock on, so its own caller can go. */
    static final int MAX_SERVED_PER_HOLD = 256;

    private final ReentrantLock lock = new ReentrantLock();
    private final ConcurrentLinkedQueue<Pending<?>> queue = new ConcurrentLinkedQueue<>();
    private final Parker parker;

    CombiningLock() {
        this(LockSupport::park);
    }

    /** A lock that waits through {@code parker}: tests count the parks. */
    CombiningLock(Parker parker) {
        this.parker = parker;
    }

    /** How a waiting caller parks: {@link LockSupport#park(Object)}. */
    @FunctionalInterface
    interface Parker {
        void park(Object blocker);
    }

    /** Runs {@code action} under the lock, in this thread or another, and returns its result. */
    <T> T call(Supplier<T> action) {
        boolean interrupted = Thread.interrupted();
        try {
            return callUninterrupted(action);
        } finally {
            if (interrupted || Thread.interrupted()) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@link #call}, for a thread whose interrupt status is clear; an interrupt meanwhile is left set. */
    private <T> T callUninterrupted(Supplier<T> action) {
        if (queue.isEmpty() && lock.tryLock()) {
            try {
                return action.get();
            } finally {
                serveAndRelease();
            }
        }
        Pending<T> pending = new Pending<>(action, Thread.currentThread());
        queue.add(pending);
        boolean interrupted = false;
        while (!pending.done) {
            if (lock.tryLock()) {
                serveAndRelease();
            } else {
                parker.park(this);
                interrupted |= Thread.interrupted(); // else the next park returns at once: a busy spin
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return pending.result();
    }

    /** Runs {@code action} under the lock, in this thread or another. */
    void run(Runnable action) {
        call(() -> {
            action.run();
            return null;
        });
    }

    /**
     * Takes the lock on this thread and keeps it until {@link #release}: queued actions wait meanwhile. For a cut
     * across several locks (a snapshot of every clock), taken in a fixed order; not to be mixed with {@link #call}
     * on the same thread.
     */
    void hold() {
        lock.lock();
    }

    /** Releases what {@link #hold} took, serving the actions queued meanwhile first. */
    void release() {
        serveAndRelease();
    }

    /** Actions waiting in the queue; O(n), for tests. */
    int queued() {
        return queue.size();
    }

    /**
     * Runs queued actions, then unlocks. Call holding the lock. Whoever queues an action tries the lock after
     * queuing it, and parks only if the lock is held; so after unlocking, a queue that is not empty means a waiter
     * may have parked behind this holder, and the queue must be served again (or its head woken to do it).
     */
    private void serveAndRelease() {
        int served = 0;
        while (true) {
            try {
                for (Pending<?> next; served < MAX_SERVED_PER_HOLD && (next = queue.poll()) != null; served++) {
                    next.run();
                }
            } finally {
                lock.unlock();
            }
            Pending<?> head = queue.peek();
            if (head == null) {
                return;
            }
            if (served >= MAX_SERVED_PER_HOLD) {
                LockSupport.unpark(head.waiter);   // it takes the lock (or finds a holder who serves it)
                return;
            }
            if (!lock.tryLock()) {
                return;   // the new holder serves the queue when it releases
            }
        }
    }

    private static final class Pending<T> implements Runnable {

        private final Supplier<T> action;
        final Thread waiter;
        private T result;
        private Throwable failure;
        volatile boolean done;

        Pending(Supplier<T> action, Thread waiter) {
            this.action = action;
            this.waiter = waiter;
        }

        @Override
        public void run() {
            try {
                result = action.get();
            } catch (Throwable t) {
                failure = t;
            }
            done = true;
            LockSupport.unpark(waiter);
        }

        T result() {
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure instanceof Error error) {
                throw error;
            }
            if (failure != null) {
                throw new IllegalStateException(failure);   // a Supplier cannot throw a checked exception
            }
            return result;
        }
    }
}
