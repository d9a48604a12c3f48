package io.timeservice.metrics;

import java.io.IOException;
import java.util.Locale;

import io.timeservice.store.memory.journal.JournalStore;
import io.timeservice.store.memory.journal.JournalWriter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code journal} health component: DOWN once a write or fsync failed (the service then refuses changes until a
 * restart), with the fsync policy as a detail; UP with {@code durability: none} when the service runs in memory only.
 * No detail names the data directory: health details are shown to every caller of an open install, and no answer
 * may carry a server path (the start-up log line names it for the operator).
 */
@Component
class JournalHealthIndicator implements HealthIndicator {

    private final ObjectProvider<JournalStore> store;

    JournalHealthIndicator(ObjectProvider<JournalStore> store) {
        this.store = store;
    }

    @Override
    public Health health() {
        JournalStore store = this.store.getIfAvailable();
        if (store == null) {
            return Health.up().withDetail("durability", "none").build();
        }
        JournalWriter writer = store.writer();
        IOException failure = writer.failure();
        Health.Builder health = failure == null ? Health.up()
                : Health.down().withDetail("failure", "a journal write failed; changes are refused until restart");
        return health.withDetail("durability", "journal")
                .withDetail("fsync", writer.fsyncPolicy().name().toLowerCase(Locale.ROOT))
                .withDetail("lastSnapshotPauseMillis", writer.lastSnapshotPauseNanos() / 1e6)
                .build();
    }
}
