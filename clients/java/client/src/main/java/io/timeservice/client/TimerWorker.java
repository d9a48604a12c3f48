package io.timeservice.client;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Claims the deliveries of a queueing clock and runs a handler on each, like BullMQ's {@code Worker}:
 *
 * <pre>{@code
 * TimerWorker worker = TimerWorker.on(clock).concurrency(8).handler(delivery -> send(delivery.payload(Mail.class)))
 *         .start();
 * ...
 * worker.close();   // stops claiming, waits for running handlers, sends their acks
 * }</pre>
 *
 * <p>Threads: one claim thread long-polls the clock for as many deliveries as there are free slots, a slot being a
 * running handler or one of {@code prefetch} deliveries claimed ahead (default: as many as {@code concurrency}, so
 * that a claim's round trip overlaps the handlers' work); a pool of {@code concurrency} threads runs the handlers;
 * one ack thread sends the acks of finished handlers in batches, one request per batch of whatever finished while
 * the previous request was on its way; one scheduler thread extends the lease of every delivery still held (waiting
 * for a handler or running) at half its lease, and again every half lease after (a scan every quarter lease). A handler that throws has its delivery nacked at once (with the
 * {@link RetryLaterException}'s delay when it is one). Delivery is at least once: a worker that dies loses its leases,
 * and the deliveries come again once the leases end.
 *
 * <p>Thread-safe. {@link #close()} stops claiming, waits up to {@code shutdownTimeout} for running handlers, sends
 * their acks and stops every thread; handlers still running then are interrupted and their deliveries come again.
 */
public final class TimerWorker implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(TimerWorker.class.getName());
    private static final int MOST_PER_REQUEST = 1000;
    private static final long MOST_BACKOFF_MILLIS = 5_000;

    /** Where a worker is in its life. */
    public enum State { RUNNING, CLOSING, CLOSED }

    private final ClockClient clock;
    private final DeliveryHandler handler;
    private final int concurrency;
    private final int prefetch;
    private final Duration lease;
    private final Duration pollWait;
    private final Duration shutdownTimeout;

    private final Semaphore slots;
    private final ExecutorService handlers;
    private final ScheduledExecutorService extender;
    private final BlockingQueue<Delivery> acks = new LinkedBlockingQueue<>();
    /** Every delivery claimed and not yet finished, by claim token: what the lease scan extends. */
    private final Map<String, Held> held = new ConcurrentHashMap<>();
    private final Thread claimer;
    private final Thread acker;
    private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
    private volatile boolean ackerStopping;

    private final LongAdder claimed = new LongAdder();
    private final LongAdder succeeded = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder acked = new LongAdder();
    private final LongAdder nacked = new LongAdder();
    private final LongAdder extended = new LongAdder();
    private final LongAdder lost = new LongAdder();
    private final LongAdder errors = new LongAdder();

    private TimerWorker(Builder builder) {
        this.clock = builder.clock;
        this.handler = builder.handler;
        this.concurrency = builder.concurrency;
        this.prefetch = builder.prefetch < 0 ? builder.concurrency : builder.prefetch;
        this.lease = builder.lease;
        this.pollWait = builder.pollWait;
        this.shutdownTimeout = builder.shutdownTimeout;
        String prefix = "timer-worker-" + clock.name();
        this.slots = new Semaphore(concurrency + prefetch);
        this.handlers = Executors.newFixedThreadPool(concurrency, threads(prefix + "-handler-", true));
        this.extender = Executors.newSingleThreadScheduledExecutor(threads(prefix + "-lease-", true));
        this.claimer = threads(prefix + "-claim", false).newThread(this::claimLoop);
        this.acker = threads(prefix + "-ack", true).newThread(this::ackLoop);
    }

    /** A builder of a worker on the deliveries of {@code clock} (a queueing clock). */
    public static Builder on(ClockClient clock) {
        return new Builder(Objects.requireNonNull(clock, "clock"));
    }

    public State state() {
        return state.get();
    }

    public WorkerStats stats() {
        return new WorkerStats(claimed.sum(), succeeded.sum(), failed.sum(), acked.sum(), nacked.sum(),
                extended.sum(), lost.sum(), errors.sum());
    }

    private void start() {
        long quarter = Math.max(1, lease.toMillis() / 4);
        extender.scheduleWithFixedDelay(this::extendDueLeases, quarter, quarter, TimeUnit.MILLISECONDS);
        acker.start();
        claimer.start();
    }

    // --- claiming -------------------------------------------------------------------------------------------------

    private void claimLoop() {
        long backoff = 0;
        while (state.get() == State.RUNNING) {
            int free = acquireSlots();
            if (free == 0) {
                continue;
            }
            List<Delivery> claimedNow;
            try {
                claimedNow = clock.claim(free, lease, pollWait);
                backoff = 0;
            } catch (RuntimeException e) {
                slots.release(free);
                errors.increment();
                backoff = Math.min(MOST_BACKOFF_MILLIS, Math.max(100, backoff * 2));
                LOG.log(Level.WARNING, "claim on clock " + clock.name() + " failed, again in " + backoff + " ms", e);
                pauseWhileRunning(backoff);
                continue;
            }
            slots.release(free - claimedNow.size());
            claimed.add(claimedNow.size());
            long extendAt = System.nanoTime() + lease.toNanos() / 2;
            for (Delivery delivery : claimedNow) {
                held.put(delivery.claim(), new Held(delivery, extendAt));
                handlers.execute(() -> run(delivery));
            }
        }
    }

    /** Waits for a free handler slot and takes every free one (up to a claim's most); 0 when the worker stops. */
    private int acquireSlots() {
        try {
            if (!slots.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                return 0;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            state.compareAndSet(State.RUNNING, State.CLOSING);
            return 0;
        }
        if (state.get() != State.RUNNING) { // close() began while this waited: claim nothing more
            slots.release();
            return 0;
        }
        int free = 1 + slots.drainPermits();
        if (free > MOST_PER_REQUEST) {
            slots.release(free - MOST_PER_REQUEST);
            free = MOST_PER_REQUEST;
        }
        return free;
    }

    private void pauseWhileRunning(long millis) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        try {
            while (state.get() == State.RUNNING && System.nanoTime() < until) {
                TimeUnit.MILLISECONDS.sleep(Math.min(100, millis));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // --- handling -------------------------------------------------------------------------------------------------

    private void run(Delivery delivery) {
        try {
            DeliveryTracing.run(clock.name(), delivery, handler);
            held.remove(delivery.claim());
            succeeded.increment();
            acks.add(delivery);
        } catch (Throwable e) {
            held.remove(delivery.claim());
            failed.increment();
            boolean interrupted = e instanceof InterruptedException || Thread.currentThread().isInterrupted();
            if (interrupted && state.get() != State.RUNNING) {
                return; // interrupted by close(): the delivery comes again when its lease ends
            }
            nack(delivery, e);
        } finally {
            slots.release();
        }
    }

    private void nack(Delivery delivery, Throwable failure) {
        Duration retryAfter = failure instanceof RetryLaterException later ? later.retryAfter() : null;
        LOG.log(Level.DEBUG, () -> "handler failed on " + delivery.id() + " (sequence " + delivery.sequence()
                + "), nacked", failure);
        try {
            clock.nack(delivery, retryAfter);
            nacked.increment();
        } catch (RuntimeException e) {
            count(e);
            LOG.log(Level.WARNING, "nack of " + delivery.id() + " failed; it comes again when its lease ends", e);
        }
    }

    /** A claimed delivery, and when its lease is next extended ({@link System#nanoTime()}). */
    private static final class Held {
        final Delivery delivery;
        volatile long extendAt;

        Held(Delivery delivery, long extendAt) {
            this.delivery = delivery;
            this.extendAt = extendAt;
        }
    }

    /**
     * Runs every quarter lease: extends each delivery held for half its lease since its claim or last extension, so
     * an extension is sent between half and three quarters into a lease.
     */
    private void extendDueLeases() {
        for (Held one : held.values()) {
            long now = System.nanoTime();
            if (now - one.extendAt < 0 || !held.containsKey(one.delivery.claim())) {
                continue;
            }
            try {
                clock.extend(one.delivery, lease);
                one.extendAt = now + lease.toNanos() / 2;
                extended.increment();
            } catch (RuntimeException e) {
                count(e);
                LOG.log(Level.WARNING, "lease extension of " + one.delivery.id() + " failed", e);
                if (e instanceof TimeServiceException) {
                    held.remove(one.delivery.claim()); // refused (the lease is lost): extending again cannot help
                }
            }
        }
    }

    private void count(RuntimeException e) {
        if (e instanceof TimeServiceException refused && "claim_lost".equals(refused.code())) {
            lost.increment();
        } else {
            errors.increment();
        }
    }

    // --- acknowledging --------------------------------------------------------------------------------------------

    private void ackLoop() {
        List<Delivery> batch = new ArrayList<>();
        while (true) {
            try {
                Delivery first = acks.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (ackerStopping && acks.isEmpty()) {
                        return;
                    }
                    continue;
                }
                batch.add(first);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            acks.drainTo(batch, MOST_PER_REQUEST - 1);
            try {
                AckResult result = clock.ackAll(batch);
                acked.add(result.acked());
                lost.add(result.claimLost().size());
            } catch (RuntimeException e) {
                errors.increment();
                LOG.log(Level.WARNING, "ack of " + batch.size() + " deliveries failed; they come again", e);
            }
            batch.clear();
        }
    }

    // --- closing --------------------------------------------------------------------------------------------------

    /**
     * Stops claiming (a long poll in flight ends first, within the poll wait), waits up to the shutdown timeout for
     * running handlers, sends their acks and stops the worker's threads. Idempotent.
     */
    @Override
    public void close() {
        if (!state.compareAndSet(State.RUNNING, State.CLOSING)) {
            return;
        }
        long deadline = System.nanoTime() + shutdownTimeout.toNanos();
        try {
            claimer.join(pollWait.plusSeconds(35).toMillis());
            handlers.shutdown();
            if (!handlers.awaitTermination(remaining(deadline), TimeUnit.NANOSECONDS)) {
                LOG.log(Level.WARNING, "handlers still running after " + shutdownTimeout + "; interrupting them");
                handlers.shutdownNow();
            }
            extender.shutdownNow();
            ackerStopping = true;
            acker.join(Duration.ofSeconds(40).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            handlers.shutdownNow();
            extender.shutdownNow();
            acker.interrupt();
        } finally {
            state.set(State.CLOSED);
        }
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    private static ThreadFactory threads(String prefix, boolean daemon) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix.endsWith("-") ? prefix + count.incrementAndGet() : prefix);
            thread.setDaemon(daemon);
            return thread;
        };
    }

    @Override
    public String toString() {
        return "TimerWorker[" + clock.name() + ", concurrency " + concurrency + ", prefetch " + prefetch + ", "
                + state.get() + "]";
    }

    /** Settings of a worker; {@link #handler} is required. */
    public static final class Builder {

        private final ClockClient clock;
        private DeliveryHandler handler;
        private int concurrency = 1;
        private int prefetch = -1;
        private Duration lease = Duration.ofSeconds(30);
        private Duration pollWait = Duration.ofSeconds(2);
        private Duration shutdownTimeout = Duration.ofSeconds(30);

        private Builder(ClockClient clock) {
            this.clock = clock;
        }

        /** How many handlers run at once (default 1). */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1: " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /**
         * How many deliveries may be claimed ahead of the handlers, waiting for one to be free (default: as many as
         * the concurrency; 0 claims only for idle handlers). Their leases run, and are extended, while they wait.
         */
        public Builder prefetch(int prefetch) {
            if (prefetch < 0) {
                throw new IllegalArgumentException("prefetch must be >= 0: " + prefetch);
            }
            this.prefetch = prefetch;
            return this;
        }

        /** How long each claimed delivery is leased for (1 s to 12 h, default 30 s); extended at half of it. */
        public Builder lease(Duration lease) {
            if (lease.compareTo(Duration.ofSeconds(1)) < 0 || lease.compareTo(Duration.ofHours(12)) > 0) {
                throw new IllegalArgumentException("lease must be from 1 s to 12 h: " + lease);
            }
            this.lease = lease;
            return this;
        }

        /**
         * How long one claim waits for a delivery when none is ready (0 to 30 s, default 2 s). {@link #close()} lets
         * a claim in flight end rather than lose what it claimed, so closing an idle worker takes up to this long.
         */
        public Builder pollWait(Duration pollWait) {
            if (pollWait.isNegative() || pollWait.compareTo(Duration.ofSeconds(30)) > 0) {
                throw new IllegalArgumentException("pollWait must be from 0 to 30 s: " + pollWait);
            }
            this.pollWait = pollWait;
            return this;
        }

        /** How long {@link TimerWorker#close()} waits for running handlers (default 30 s). */
        public Builder shutdownTimeout(Duration shutdownTimeout) {
            if (shutdownTimeout.isNegative()) {
                throw new IllegalArgumentException("shutdownTimeout must be >= 0: " + shutdownTimeout);
            }
            this.shutdownTimeout = shutdownTimeout;
            return this;
        }

        /** What to do with each delivery. */
        public Builder handler(DeliveryHandler handler) {
            this.handler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** Starts claiming. */
        public TimerWorker start() {
            if (handler == null) {
                throw new IllegalStateException("a worker needs a handler");
            }
            TimerWorker worker = new TimerWorker(this);
            worker.start();
            return worker;
        }
    }
}
