package io.timeservice.config;

import java.io.IOException;

import io.timeservice.core.SchedulerMetrics;
import io.timeservice.core.TimerScheduler;
import io.timeservice.core.VirtualClock;
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

    @Bean
    TimerScheduler timerScheduler(TimeServiceProperties properties, SchedulerMetrics metrics) {
        TimerScheduler scheduler = new TimerScheduler(new VirtualClock(0), properties.heap().arity(),
                properties.capacity(), properties.capacityBytes().toBytes(), System::currentTimeMillis, metrics);
        scheduler.limitInvariantChecks(properties.invariants().minCheckInterval(),
                properties.invariants().rateLimitedAbove());
        return scheduler;
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "timeservice.durability", havingValue = "journal", matchIfMissing = true)
    JournalStore journalStore(TimerScheduler scheduler, TimeServiceProperties properties, JournalMetrics metrics)
            throws IOException {
        JournalStore store = JournalStore.open(properties.dataDir(), scheduler, properties.fsync(),
                properties.fsyncInterval(), properties.snapshot().multiple(),
                properties.snapshot().minJournalSize().toBytes(), properties.journal().segmentSize().toBytes(),
                properties.journal().maxUnflushedBytes().toBytes());
        store.writer().reportTo(metrics);
        return store;
    }
}
