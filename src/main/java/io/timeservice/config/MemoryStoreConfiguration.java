package io.timeservice.config;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.CronParser;
import io.timeservice.store.ClockStore;
import io.timeservice.store.FlowKeyStore;
import io.timeservice.store.DeliveryStore;
import io.timeservice.store.QueueInspector;
import io.timeservice.store.ScheduleStore;
import io.timeservice.store.StoreMetrics;
import io.timeservice.store.TimerStore;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;
import io.timeservice.store.memory.MemoryClockStore;
import io.timeservice.store.memory.MemoryFlowKeyStore;
import io.timeservice.store.memory.MemoryDeliveryStore;
import io.timeservice.store.memory.MemoryQueueInspector;
import io.timeservice.store.memory.MemoryScheduleStore;
import io.timeservice.store.memory.MemoryTimerStore;
import io.timeservice.store.memory.PendingBudget;
import io.timeservice.store.memory.journal.JournalMetrics;
import io.timeservice.store.memory.journal.JournalStore;
import io.timeservice.store.memory.time.FiringLoop;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The whole memory store, with {@code timeservice.store=memory} (the default) only: every clock's heap
 * ({@link ClockRegistry}), the firing thread of the system clocks, the idle-clock sweeper, and, unless
 * {@code timeservice.durability=none}, the journal that recovers them at start-up and records every mutation; the
 * store ports the controllers use, and the heap views. The web server starts only after all exist, and stops
 * (gracefully) before the journal is closed, so no acknowledged request misses the journal.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = StoreAutoConfigurationFilter.PROPERTY, havingValue = "memory", matchIfMissing = true)
class MemoryStoreConfiguration {


    private static final System.Logger LOG = System.getLogger(MemoryStoreConfiguration.class.getName());

    /** Every virtual clock; the capacity is one budget over all of them. */
    @Bean
    ClockRegistry clocks(TimeServiceProperties properties, StoreMetrics metrics, CronParser cronParser) {
        PendingBudget budget = deliveryLimited(new PendingBudget(properties.capacity(),
                properties.capacityBytes().toBytes()), properties.deliveries().max());
        budget.limitSchedules(properties.schedules().max());
        budget.limitReservations(properties.dedupe().maxReservations());
        return new ClockRegistry((clock, shared) -> {
            MemoryClock scheduler = new MemoryClock(clock, properties.heap().arity(), shared,
                    System::currentTimeMillis, metrics);
            scheduler.scheduleWith(cronParser, properties.schedules().maxCatchUp()); // before recovery reads any
            scheduler.limitInvariantChecks(properties.invariants().minCheckInterval(),
                    properties.invariants().rateLimitedAbove());
            return scheduler;
        }, budget, properties.clocks().max(), System::currentTimeMillis);
    }

    private static PendingBudget deliveryLimited(PendingBudget budget, long maxDeliveries) {
        budget.limitDeliveries(maxDeliveries);
        return budget;
    }

    /**
     * With {@code timeservice.clocks.idle-ttl} set, deletes idle clocks every tenth of the TTL (6 s to 1 min), so a
     * clock goes at most that long after its {@code deletesAt}. Depends on the journal, so it starts after recovery
     * and stops before the journal closes.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "timeservice.clocks.idle-ttl")
    IdleClockSweeper idleClockSweeper(ClockRegistry clocks, TimeServiceProperties properties,
                                      ObjectProvider<JournalStore> journal) {
        journal.getIfAvailable();
        Duration ttl = properties.clocks().idleTtl();
        clocks.deleteIdleAfter(ttl);
        return new IdleClockSweeper(clocks, Math.max(1_000, Math.min(ttl.toMillis() / 10, 60_000)));
    }

    /**
     * Runs {@link ClockRegistry#deleteIdle} at a fixed delay; not an Executor bean, which would displace Boot's own.
     */
    static final class IdleClockSweeper implements AutoCloseable {

        private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "timeservice-idle-clocks");
            thread.setDaemon(true);
            return thread;
        });

        IdleClockSweeper(ClockRegistry clocks, long periodMillis) {
            executor.scheduleWithFixedDelay(() -> {
                try {
                    clocks.deleteIdle();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "could not delete idle clocks; trying again later", e);
                }
            }, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            executor.shutdownNow();
        }
    }

    /**
     * The thread that fires every system clock. Starts after recovery (it depends on the journal), gives the default
     * clock its configured mode first, and stops before the journal closes.
     */
    @Bean(destroyMethod = "stop")
    FiringLoop firingLoop(ClockRegistry clocks, TimeServiceProperties properties,
                          ObjectProvider<JournalStore> journal) {
        journal.getIfAvailable();
        clocks.configureDefault(ClockSettings.of(properties.clock().mode(), null, null));
        FiringLoop loop = new FiringLoop(System::currentTimeMillis, properties.firing().maxSleep().toMillis(),
                properties.firing().roundSize());
        clocks.fireWith(loop);
        loop.start();
        return loop;
    }

    /** The {@code default} clock, which the paths without a clock address. */
    @Bean
    MemoryClock defaultMemoryClock(ClockRegistry clocks) {
        return clocks.defaultScheduler();
    }

    /** The memory store's journal, unless {@code timeservice.durability=none}. */
    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "timeservice.durability", havingValue = "journal", matchIfMissing = true)
    JournalStore journalStore(ClockRegistry clocks, TimeServiceProperties properties, JournalMetrics metrics)
            throws IOException {
        JournalStore store = JournalStore.open(properties.dataDir(), clocks, properties.fsync(),
                properties.fsyncInterval(), properties.snapshot().multiple(),
                properties.snapshot().minJournalSize().toBytes(), properties.journal().segmentSize().toBytes(),
                properties.journal().maxUnflushedBytes().toBytes());
        store.writer().reportTo(metrics);
        return store;
    }


    /** The {@code store} health component (in the readiness group for the PostgreSQL store's sake): always UP. */
    @Bean
    HealthIndicator storeHealthIndicator() {
        return () -> Health.up().withDetail("store", "memory").build();
    }

    @Bean
    ClockStore clockStore(ClockRegistry clocks) {
        return new MemoryClockStore(clocks);
    }

    @Bean
    FlowKeyStore flowKeyStore(ClockRegistry clocks) {
        return new MemoryFlowKeyStore(clocks);
    }

    @Bean
    TimerStore timerStore(ClockRegistry clocks) {
        return new MemoryTimerStore(clocks);
    }

    @Bean
    ScheduleStore scheduleStore(ClockRegistry clocks) {
        return new MemoryScheduleStore(clocks);
    }

    @Bean
    DeliveryStore deliveryStore(ClockRegistry clocks) {
        return new MemoryDeliveryStore(clocks);
    }

    @Bean
    QueueInspector queueInspector(ClockRegistry clocks) {
        return new MemoryQueueInspector(clocks);
    }
}
