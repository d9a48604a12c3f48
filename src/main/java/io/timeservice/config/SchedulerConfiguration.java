package io.timeservice.config;

import java.io.IOException;

import io.timeservice.core.Clocks;
import io.timeservice.core.PendingBudget;
import io.timeservice.core.SchedulerMetrics;
import io.timeservice.core.TimerScheduler;
import io.timeservice.journal.JournalMetrics;
import io.timeservice.journal.JournalStore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the one scheduler of this service and, unless {@code timeservice.durability=none}, the journal that
 * recovers it at start-up and records every mutation. The web server starts only after both exist, and stops
 * (gracefully) before the journal is closed, so no acknowledged request misses the journal.
 */
@Configuration(proxyBeanMethods = false)
class SchedulerConfiguration {

    /** Every virtual clock; the capacity is one budget over all of them. */
    @Bean
    Clocks clocks(TimeServiceProperties properties, SchedulerMetrics metrics) {
        return new Clocks((clock, budget) -> {
            TimerScheduler scheduler = new TimerScheduler(clock, properties.heap().arity(), budget,
                    System::currentTimeMillis, metrics);
            scheduler.limitInvariantChecks(properties.invariants().minCheckInterval(),
                    properties.invariants().rateLimitedAbove());
            return scheduler;
        }, new PendingBudget(properties.capacity(), properties.capacityBytes().toBytes()), properties.clocks().max(),
                System::currentTimeMillis);
    }

    /** The {@code default} clock's scheduler, which the paths without a clock address. */
    @Bean
    TimerScheduler timerScheduler(Clocks clocks) {
        return clocks.defaultScheduler();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "timeservice.durability", havingValue = "journal", matchIfMissing = true)
    JournalStore journalStore(Clocks clocks, TimeServiceProperties properties, JournalMetrics metrics)
            throws IOException {
        JournalStore store = JournalStore.open(properties.dataDir(), clocks, properties.fsync(),
                properties.fsyncInterval(), properties.snapshot().multiple(),
                properties.snapshot().minJournalSize().toBytes(), properties.journal().segmentSize().toBytes(),
                properties.journal().maxUnflushedBytes().toBytes());
        store.writer().reportTo(metrics);
        return store;
    }
}
