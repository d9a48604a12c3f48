package io.timeservice.store;

import java.util.List;

import io.timeservice.cron.UnixCronParser;
import io.timeservice.model.CronParser;
import io.timeservice.model.Delivery;

/**
 * The ports of one store, opened fresh for one contract case ({@link StoreContract}): a memory store, or a
 * PostgreSQL store on its test class's schema, emptied before it opens.
 */
public interface Stores extends AutoCloseable {

    /** The one cron parser both stores are opened with, as the service opens them. */
    CronParser CRON = new UnixCronParser();

    TimerStore timers();

    DeliveryStore deliveries();

    ClockStore clocks();

    ScheduleStore schedules();

    /** Single keys of clocks under flow control: overrides and the busiest keys. */
    FlowKeyStore flowKeys();

    /**
     * Every delivery of {@code clock} not acknowledged, as the store holds it, in sequence order: what the API
     * cannot list (ready and in-flight deliveries), for the cases that compare the stores' whole state.
     */
    List<Delivery> unacknowledged(String clock);

    @Override
    void close();

    /**
     * What a store is opened with: the most pending timers and unacknowledged deliveries (and their id and payload
     * characters), clocks, schedules, occurrences one advance catches up, unacknowledged deliveries and reserved ids.
     */
    record Limits(int capacity, long capacityBytes, int maxClocks, long maxSchedules, int maxCatchUp,
                  long maxDeliveries, long maxReservations) {

        /** Room for every case that does not test a limit. */
        public static final Limits ROOMY = new Limits(10_000, 10_000_000, 10, 1_000, 1_000, Long.MAX_VALUE,
                Long.MAX_VALUE);

        public Limits withCapacity(int timers, long bytes) {
            return new Limits(timers, bytes, maxClocks, maxSchedules, maxCatchUp, maxDeliveries, maxReservations);
        }

        public Limits withMaxClocks(int clocks) {
            return new Limits(capacity, capacityBytes, clocks, maxSchedules, maxCatchUp, maxDeliveries,
                    maxReservations);
        }

        public Limits withSchedules(long schedules, int catchUp) {
            return new Limits(capacity, capacityBytes, maxClocks, schedules, catchUp, maxDeliveries,
                    maxReservations);
        }

        public Limits withMaxReservations(long reservations) {
            return new Limits(capacity, capacityBytes, maxClocks, maxSchedules, maxCatchUp, maxDeliveries,
                    reservations);
        }

        public Limits withMaxDeliveries(long deliveries) {
            return new Limits(capacity, capacityBytes, maxClocks, maxSchedules, maxCatchUp, deliveries,
                    maxReservations);
        }
    }

    /** Opens a store for one case. */
    @FunctionalInterface
    interface Opener {
        Stores open(Limits limits);
    }
}
