package io.timeservice.core;

import java.util.List;

/**
 * The delivery queues of a store's clocks, as the web layer uses them ({@code null} names the default clock). Same
 * semantics and refusals on every store; see {@link TimerScheduler} for each call's contract.
 */
public interface DeliveryStore {

    List<Delivery> claim(String clock, int max, long leaseMillis, long waitMillis);

    void ack(String clock, String id, String claim);

    /** Each ack decided on its own, in order: null for acked, else why not. */
    List<ErrorCode> ackAll(String clock, List<TimerScheduler.Ack> acks);

    Delivery nack(String clock, String id, String claim, Long retryAfterMillis);

    Delivery extend(String clock, String id, String claim, long leaseMillis);

    /** @throws SchedulerException {@code clock_not_queued} for a clock that answers fired timers from advance */
    DeliveryCounts counts(String clock);

    List<Delivery> dead(String clock, int limit, long afterSequence);

    List<Delivery> redrive(String clock, String id, Long sequence);

    void deleteDead(String clock, String id, Long sequence);

    /**
     * Ends every long poll of every clock now, and every later one at once, until {@link #allowWaits}: the service is
     * stopping, and a graceful shutdown should not wait out the polls. A claim still takes what is ready.
     */
    void endWaits();

    /** Lets long polls wait again after {@link #endWaits}: the service runs again (a stopped context restarted). */
    void allowWaits();
}
