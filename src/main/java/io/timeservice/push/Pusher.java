package io.timeservice.push;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockView;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.store.ClockStore;
import io.timeservice.store.DeliveryStore;

/**
 * Pushes the deliveries of every push clock: a worker inside the service. For each push clock it claims ready
 * deliveries through the {@link DeliveryStore} (longest-ready first, so first attempts leave in firing order), at most
 * the clock's {@code concurrency} in flight, each leased for its target's timeout plus {@link #LEASE_MARGIN_MILLIS};
 * sends each without blocking; and settles each as its answer says, through the same calls a worker makes: a 2xx
 * acknowledges, a 410 sends it to the dead letters ({@link DeliveryStore#reject}), anything else gives it back
 * ({@code nack}), with a 429's or 503's {@code Retry-After} as its wait (at most the clock's {@code maxBackoff}), else
 * the clock's backoff. Retries, dead letters, redrive, counts, lateness, the journal and PostgreSQL's leases are the
 * store's, so pushes behave as claims do: at least once (a push whose answer is lost, or whose instance dies, is
 * pushed again after its lease), and on PostgreSQL each instance's pusher claims as a worker would, so one delivery is
 * pushed by one instance at a time.
 *
 * <p>When to look: the store tells of clocks whose deliveries became ready ({@link DeliveryStore#onReady}: firing,
 * retries coming due, nacks, redrives — on a virtual clock, whatever an advance made ready), and each settled push
 * looks again at its clock. Where the store may miss some (PostgreSQL's notifications), a sweep every {@code sweep}
 * also looks at every push clock it knows; every {@link #FULL_SWEEPS} sweeps (and at the start) it lists every clock
 * and looks at the push clocks with ready deliveries (a restart, a clock never signalled here). Listing does not
 * count as using a clock, so the memory store's idle clocks still go. A signal of a clock read lately as one that
 * does not push (a queue clock's) is skipped without a round; the first sweep after those settings may be read again
 * looks at it, so a clock deleted and made again as a push clock pushes within a second or two, not a full sweep.
 *
 * <p>Threads: the store's callers only take note ({@link #ready}); claims and settlements (blocking store calls: the
 * journal, JDBC) run on this pusher's small pool; requests run on the client's I/O threads. Over a store whose calls
 * never wait for I/O (the memory store without a journal) an answer is settled, and the slots it frees claimed and
 * sent into, on the I/O thread that received it: no hand-off to the pool between an answer and the next request.
 * Nothing here blocks the firing thread or a request thread. A clock's state is guarded by its own monitor.
 */
public final class Pusher implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Pusher.class.getName());

    /** Added to the target's timeout for the lease: the settlement after a timeout still holds the claim. */
    public static final long LEASE_MARGIN_MILLIS = 5_000;
    /** Every this many sweeps look at every clock, not just the push clocks known. */
    static final int FULL_SWEEPS = 30;
    /**
     * How long a clock's settings are trusted before they are read again (a scaled clock's rate). A clock deleted and
     * made again does not wait for it: the claim names the incarnation read, and the store refuses another.
     */
    private static final long SETTINGS_TTL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int LIST_PAGE = 1_000;

    private final ClockStore clocks;
    private final DeliveryStore deliveries;
    private final PushSender sender;
    private final PushMetrics metrics;
    private final ExecutorService work;
    private final ScheduledExecutorService sweeps;
    private final Duration sweep;
    private final Map<String, ClockPushes> byClock = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong sweepCount = new AtomicLong();
    private volatile boolean stopped;
    /** Whether the store tells of every ready change; if not, each sweep looks at every push clock known. */
    private volatile boolean everyReadyTold;
    /** Whether answers are settled (and freed slots refilled) on the thread that received them. */
    private final boolean settleOnAnswer;
    private ScheduledFuture<?> sweeping;
    /** The tag of this start in every webhook-id, or null; see the constructor. */
    private final String instance;

    /**
     * @param threads how many claims and settlements run at once (store calls that may wait for the journal or the
     *                database)
     * @param sweeps  runs the sweep; shared with the client's deadlines is fine (its tasks are short)
     * @param settleOnAnswer settle answers, and claim and send into the slots they free, on the thread that received
     *                       them (the client's I/O thread) rather than handing them to this pusher's pool: only for a
     *                       store whose claims and acknowledgements never wait for I/O (the memory store without a
     *                       journal), since that thread serves every clock's requests
     * @param instance       for a store that forgets its sequences at a restart (the memory store without a
     *                       journal): a tag of this start, unique among starts ({@link #newInstance}), that every
     *                       {@code webhook-id} carries so that none repeats after a restart; null for a store that
     *                       keeps them
     */
    public Pusher(ClockStore clocks, DeliveryStore deliveries, PushSender sender, PushMetrics metrics, int threads,
                  ScheduledExecutorService sweeps, Duration sweep, boolean settleOnAnswer, String instance) {
        this.settleOnAnswer = settleOnAnswer;
        this.instance = instance;
        this.clocks = clocks;
        this.deliveries = deliveries;
        this.sender = sender;
        this.metrics = metrics;
        this.sweeps = sweeps;
        this.sweep = sweep;
        AtomicInteger named = new AtomicInteger();
        this.work = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                runnable -> {
                    Thread thread = new Thread(runnable, "timeservice-push-" + named.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /** A tag for this start of the service: 64 random bits in base 36, so no two starts share one. */
    public static String newInstance() {
        return Long.toUnsignedString(new java.security.SecureRandom().nextLong(), 36);
    }

    /** Starts listening for ready deliveries and sweeping; looks at every clock once now. */
    public synchronized void start() {
        stopped = false;
        everyReadyTold = deliveries.onReady(this::ready);
        sweeping = sweeps.scheduleWithFixedDelay(this::sweep, 0, sweep.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether answers are settled on the thread that received them (a store that never waits for I/O). */
    public boolean settlesOnAnswer() {
        return settleOnAnswer;
    }

    /** Requests in flight now, over every clock. */
    public int inFlight() {
        return inFlight.get();
    }

    /** The store's signal: deliveries of {@code clock} may be ready. Takes note only (maybe under a clock's lock). */
    void ready(String clock) {
        if (!stopped) {
            kick(byClock.computeIfAbsent(clock, ClockPushes::new));
        }
    }

    private void sweep() {
        try {
            if (sweepCount.getAndIncrement() % FULL_SWEEPS == 0) {
                String after = null;
                while (!stopped) {
                    List<ClockView> page = clocks.list(LIST_PAGE, after);
                    for (ClockView clock : page) {
                        if (clock.settings().pushes() && clock.deliveries() != null
                                && clock.deliveries().ready() > 0) {
                            ready(clock.name());
                        }
                    }
                    if (page.size() < LIST_PAGE) {
                        break;
                    }
                    after = page.get(page.size() - 1).name();
                }
            }
            for (ClockPushes clock : byClock.values()) {
                ClockSettings settings = clock.settings();
                if (settings != null && settings.pushes()) {
                    if (!everyReadyTold) {
                        kick(clock); // a lost notification; where none is lost, a look would keep idle clocks alive
                    }
                } else if (clock.takeSkippedSignal()) {
                    kick(clock); // told of while read as not pushing: it may have been made again as a push clock
                } else if (clock.idle()) {
                    byClock.remove(clock.name, clock); // a clock that does not push, nothing in flight
                }
            }
        } catch (RuntimeException failed) {
            LOG.log(System.Logger.Level.WARNING, "a push sweep failed; the next one tries again: " + failed);
        }
    }

    /** Runs a round of claims for {@code clock} on the pool, unless one is queued or running (then it runs again). */
    private void kick(ClockPushes clock) {
        synchronized (clock) {
            if (clock.knownNotToPush()) {
                clock.skippedSignal = true; // the next sweep after the settings' TTL looks again
                return;
            }
            if (clock.roundQueued) {
                clock.again = true;
                return;
            }
            clock.roundQueued = true;
        }
        try {
            work.execute(() -> round(clock));
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            synchronized (clock) {
                clock.roundQueued = false;
            }
        }
    }

    /**
     * Claims and sends what is ready for {@code clock}, as far as its concurrency allows. Claims only from the
     * incarnation whose settings were read ({@link DeliveryStore#claimOf}): a clock deleted and created again under
     * the name (with another target or secret, or as a queue clock) refuses it, and its settings are read again.
     */
    private void round(ClockPushes clock) {
        try {
            boolean readAgain = false;
            while (!stopped) {
                ClockView read = clock.read(clocks);
                if (read == null || !read.settings().pushes()) {
                    return;
                }
                ClockSettings settings = read.settings();
                PushTarget target = settings.push();
                int free;
                synchronized (clock) {
                    clock.again = false;
                    free = target.concurrency() - clock.inFlight;
                }
                if (free <= 0 || (free < claimChunk(target) && free < target.concurrency())) {
                    return; // each settlement kicks the clock again; claims wait for a chunk while others are out
                }
                int max = Math.min(free, Limits.MAX_CLAIM);
                List<Delivery> claimed;
                try {
                    claimed = deliveries.claimOf(clock.name, read.incarnation(), max, leaseMillis(settings));
                } catch (ProblemException refused) {
                    if (refused.code() != ErrorCode.CLOCK_NOT_FOUND || readAgain) {
                        throw refused;
                    }
                    clock.forget(); // deleted, maybe made again: its settings are read again, once per round
                    readAgain = true;
                    continue;
                }
                synchronized (clock) {
                    clock.inFlight += claimed.size();
                }
                inFlight.addAndGet(claimed.size());
                for (Delivery delivery : claimed) {
                    send(clock, read.incarnation(), settings, delivery);
                }
                if (claimed.size() < max) {
                    return;
                }
            }
        } catch (ProblemException refused) {
            if (refused.code() == ErrorCode.CLOCK_NOT_FOUND || refused.code() == ErrorCode.CLOCK_NOT_QUEUED) {
                clock.forget();
            } else {
                LOG.log(System.Logger.Level.DEBUG, "push claim on " + clock.name + " refused: " + refused.getMessage());
            }
        } catch (RuntimeException failed) {
            LOG.log(System.Logger.Level.WARNING, "push claim on " + clock.name + " failed; the sweep tries again: "
                    + failed);
        } finally {
            boolean again;
            synchronized (clock) {
                clock.roundQueued = false;
                again = clock.again;
                clock.again = false;
            }
            if (again) {
                kick(clock);
            }
        }
    }

    /**
     * The fewest a claim takes while pushes of its clock are in flight: an eighth of the concurrency. One claim per
     * freed slot would make every push cost a claim of its own; the chunk keeps at least 7/8 of the slots busy.
     */
    static int claimChunk(PushTarget target) {
        return Math.max(1, target.concurrency() / 8);
    }

    /**
     * The lease of a push: the target's timeout plus {@link #LEASE_MARGIN_MILLIS} of wall time, in the clock's own
     * time (a scaled clock's lease runs at its rate, so at rate 60 a 15 s push holds a 15 min lease), within the
     * lease bounds. At the fastest rates the bound is shorter in wall time than a slow target: such a push may end
     * its lease and be pushed again (at least once).
     */
    static long leaseMillis(ClockSettings settings) {
        long lease = clockMillisOf(settings, settings.push().timeoutMillis() + LEASE_MARGIN_MILLIS);
        return Math.min(Limits.MAX_LEASE_MILLIS, Math.max(Limits.MIN_LEASE_MILLIS, lease));
    }

    /** Clock milliseconds that {@code wallMillis} make on the clock: the rate's on a scaled clock, else the same. */
    static long clockMillisOf(ClockSettings settings, long wallMillis) {
        return settings.isScaled() ? settings.rate().clockMillis(wallMillis) : wallMillis;
    }

    private void send(ClockPushes clock, long incarnation, ClockSettings settings, Delivery delivery) {
        long started = System.nanoTime();
        PushAttempt attempt = metrics.attemptStarted(clock.name, incarnation, delivery, settings.push().url(),
                delivery.attempt() >= settings.retry().maxAttempts());
        sender.post(settings.push(), clock.name, delivery, PushBody.webhookId(clock.name, delivery, instance),
                        attempt.headers())
                .whenComplete((outcome, never) -> {
                    PushOutcome ended = outcome != null ? outcome : PushOutcome.failed(PushOutcome.Kind.CONNECT_ERROR,
                            String.valueOf(never));
                    metrics.attempt(ended.kind(), System.nanoTime() - started);
                    attempt.ended(ended);
                    clock.answered.add(new Answered(delivery, settings, ended));
                    settleAnswered(clock);
                });
    }

    /**
     * Settles {@code clock}'s answered pushes, unless a settlement is queued or running: on this thread, the one that
     * received the answer, when the store never waits for I/O ({@link #settleOnAnswer}), else on the pool.
     */
    private void settleAnswered(ClockPushes clock) {
        synchronized (clock) {
            if (clock.settleQueued) {
                return;
            }
            clock.settleQueued = true;
        }
        if (settleOnAnswer) {
            settle(clock);
            return;
        }
        try {
            work.execute(() -> settle(clock));
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // stopping: the leases end and the deliveries are pushed again
            int dropped = 0;
            while (clock.answered.poll() != null) {
                dropped++;
            }
            done(clock, dropped);
        }
    }

    /**
     * Settles what was answered so far: every acknowledgement of the clock in one {@code ackAll} per
     * {@link Limits#MAX_CLAIM} (one journal record, one transaction), each other outcome by its own call. Answers that
     * arrive meanwhile wait for the next round of this method, which runs at once.
     */
    private void settle(ClockPushes clock) {
        while (true) {
            synchronized (clock) {
                if (clock.answered.isEmpty()) {
                    clock.settleQueued = false;
                    break;
                }
            }
            List<Answered> batch = new java.util.ArrayList<>();
            for (Answered answered; batch.size() < Limits.MAX_CLAIM && (answered = clock.answered.poll()) != null; ) {
                batch.add(answered);
            }
            List<io.timeservice.model.Ack> acks = new java.util.ArrayList<>();
            for (Answered answered : batch) {
                if (answered.outcome().acknowledged()) {
                    acks.add(new io.timeservice.model.Ack(answered.delivery().id(), answered.delivery().claim()));
                } else {
                    settleFailed(clock, answered);
                }
            }
            if (!acks.isEmpty()) {
                try {
                    deliveries.ackAll(clock.name, acks); // a lost claim (its lease ended first) is retried by the store
                } catch (RuntimeException failed) {
                    LOG.log(System.Logger.Level.WARNING, acks.size() + " pushes of " + clock.name + " not"
                            + " acknowledged; their leases end and they are pushed again: " + failed);
                }
            }
            done(clock, batch.size());
        }
    }

    private void settleFailed(ClockPushes clock, Answered answered) {
        Delivery delivery = answered.delivery();
        PushOutcome outcome = answered.outcome();
        try {
            if (outcome.gone()) {
                deliveries.reject(clock.name, delivery.id(), delivery.claim(), "the target answered 410 Gone on"
                        + " attempt " + delivery.attempt());
            } else {
                Long wait = outcome.retryAfterMillis() == null ? null
                        : Math.min(clockMillisOf(answered.settings(), outcome.retryAfterMillis()),
                                answered.settings().retry().maxBackoffMillis()); // the target's wall time, ours
                deliveries.nack(clock.name, delivery.id(), delivery.claim(), wait);
            }
        } catch (ProblemException lost) {
            // claim_lost: the lease ended first (a virtual clock advanced past it); the store retries it anyway
            LOG.log(System.Logger.Level.DEBUG, "push of " + clock.name + "/" + delivery.sequence() + " ("
                    + outcome.detail() + ") not settled: " + lost.getMessage());
        } catch (RuntimeException failed) {
            LOG.log(System.Logger.Level.WARNING, "push of " + clock.name + "/" + delivery.sequence() + " not settled;"
                    + " its lease ends and it is pushed again: " + failed);
        }
    }

    private void done(ClockPushes clock, int settled) {
        if (settled == 0) {
            return;
        }
        synchronized (clock) {
            clock.inFlight -= settled;
        }
        if (inFlight.addAndGet(-settled) == 0) {
            synchronized (inFlight) {
                inFlight.notifyAll(); // a stop waiting for the last settlement
            }
        }
        if (stopped) {
            return;
        }
        synchronized (clock) {
            if (clock.roundQueued || clock.knownNotToPush()) {
                clock.again = true;
                return;
            }
            clock.roundQueued = true;
        }
        round(clock); // on this thread: the freed slots are filled without another hand-off to the pool
    }

    /** A push's answer, waiting to be settled. */
    private record Answered(Delivery delivery, ClockSettings settings, PushOutcome outcome) {
    }

    /**
     * Stops claiming and waits up to {@code grace} for the pushes in flight to settle; those still out then are
     * pushed again after their leases (at least once).
     */
    public void stop(Duration grace) {
        synchronized (this) {
            stopped = true;
            deliveries.onReady(DeliveryStore.ReadyListener.NONE);
            if (sweeping != null) {
                sweeping.cancel(false);
            }
        }
        long deadline = System.nanoTime() + grace.toNanos();
        synchronized (inFlight) {
            while (inFlight.get() > 0 && System.nanoTime() < deadline) {
                try {
                    inFlight.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
    }

    @Override
    public void close() {
        stop(Duration.ZERO);
        work.shutdownNow();
    }

    /**
     * One clock name's pushes: the clock as last read, and how many of its requests are out (those of a clock deleted
     * since count until they settle; their settlements find their claims lost).
     */
    private static final class ClockPushes {
        final String name;
        /** Guarded by this. */
        int inFlight;
        /** A round is queued or running; guarded by this. */
        boolean roundQueued;
        /** Something may have become ready since the running round looked; guarded by this. */
        boolean again;
        /** A settlement is queued or running; guarded by this. */
        boolean settleQueued;
        /**
         * A signal came while the clock was read as one that does not push; guarded by this. The clock may have been
         * deleted and made again as a push clock since, which no later signal may tell, so a sweep looks again.
         */
        boolean skippedSignal;
        /** Answers not yet settled, in the order they came. */
        final java.util.Queue<Answered> answered = new java.util.concurrent.ConcurrentLinkedQueue<>();
        /** The clock as last read (its settings and incarnation); null when not read or gone. */
        volatile ClockView view;
        volatile long settingsReadAt;

        ClockPushes(String name) {
            this.name = name;
        }

        /**
         * The clock (settings and incarnation), read again once older than the TTL (a scaled clock's rate changes);
         * null when it no longer exists.
         */
        ClockView read(ClockStore clocks) {
            long now = System.nanoTime();
            if (view == null || now - settingsReadAt > SETTINGS_TTL_NANOS) {
                try {
                    view = clocks.get(name);
                } catch (ProblemException refused) {
                    if (refused.code() != ErrorCode.CLOCK_NOT_FOUND) {
                        throw refused;
                    }
                    view = null;
                }
                settingsReadAt = now;
            }
            return view;
        }

        /** The settings as last read, or null. */
        ClockSettings settings() {
            ClockView read = view;
            return read == null ? null : read.settings();
        }

        /** Read lately and not a push clock: a signal of it (a queue clock's ready deliveries) needs no round. */
        boolean knownNotToPush() {
            ClockSettings read = settings();
            return read != null && !read.pushes() && System.nanoTime() - settingsReadAt <= SETTINGS_TTL_NANOS;
        }

        synchronized boolean idle() {
            return inFlight == 0 && !roundQueued && !settleQueued && !skippedSignal;
        }

        /** Whether a signal was skipped and the settings read then are old enough to be read again; clears it. */
        synchronized boolean takeSkippedSignal() {
            if (!skippedSignal || System.nanoTime() - settingsReadAt <= SETTINGS_TTL_NANOS) {
                return false;
            }
            skippedSignal = false;
            return true;
        }

        void forget() {
            view = null;
            settingsReadAt = 0;
        }
    }
}
