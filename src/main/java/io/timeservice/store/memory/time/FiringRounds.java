package io.timeservice.store.memory.time;

/**
 * A running clock as the firing thread ({@link FiringLoop}) knows it: the key it keeps a wake-up under
 * ({@link Wakeups}) and the round it runs once that wake-up is due.
 */
public interface FiringRounds {

    /**
     * Fires at most {@code maxTimers} due timers of this clock, under its lock, and asks for the next round; returns
     * how many fired.
     *
     * @throws io.timeservice.model.ProblemException {@code storage_unavailable} when the journal holds the round
     *                                                 back or has stopped, {@code clock_not_found} once deleted
     */
    int fireRound(int maxTimers);
}
