package io.timeservice.config;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

import io.timeservice.metrics.IdempotencyMeters;
import io.timeservice.store.IdempotencyStore;
import io.timeservice.store.memory.AnswerLog;
import io.timeservice.store.memory.MemoryIdempotencyStore;
import io.timeservice.store.memory.journal.AnswerJournal;
import io.timeservice.store.memory.journal.JournalStore;
import io.timeservice.store.postgres.PostgresIdempotencyStore;
import io.timeservice.store.postgres.PostgresStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link IdempotencyStore} of the configured store, and the thread that purges its expired keys every minute.
 * The memory store's kept answers are journaled in the data directory ({@link AnswerJournal}) unless
 * {@code timeservice.durability=none}; the PostgreSQL store's are rows of {@code idempotency_keys}.
 */
@Configuration(proxyBeanMethods = false)
class IdempotencyStoreConfiguration {

    private static final System.Logger LOG = System.getLogger(IdempotencyStoreConfiguration.class.getName());
    static final long PURGE_PERIOD_MILLIS = 60_000;

    @Bean(destroyMethod = "close")
    KeyPurge idempotencyKeyPurge(IdempotencyStore store) {
        return new KeyPurge(store);
    }

    @Bean
    IdempotencyMeters idempotencyMeters(IdempotencyStore store) {
        return new IdempotencyMeters(store);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = StoreAutoConfigurationFilter.PROPERTY, havingValue = "memory", matchIfMissing = true)
    static class Memory {

        /** After the clocks' journal, which holds the data directory's lock. */
        @Bean(destroyMethod = "close")
        @ConditionalOnProperty(name = "timeservice.durability", havingValue = "journal", matchIfMissing = true)
        AnswerJournal answerJournal(TimeServiceProperties properties, ObjectProvider<JournalStore> journal,
                                    MemoryIdempotencyStore store)
                throws IOException {
            journal.getIfAvailable();
            AnswerJournal answers = AnswerJournal.open(properties.dataDir(), properties.fsync(), store::restore);
            store.logTo(answers);
            return answers;
        }

        @Bean
        MemoryIdempotencyStore idempotencyStore(IdempotencyProperties idempotency) {
            return new MemoryIdempotencyStore(System::currentTimeMillis, idempotency.retention(),
                    idempotency.maxKeys(), AnswerLog.NONE);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = StoreAutoConfigurationFilter.PROPERTY, havingValue = "postgresql")
    static class Postgres {

        /** Made after the store, which is opened after Flyway migrated the schema (V30 holds the table). */
        @Bean
        IdempotencyStore idempotencyStore(DataSource dataSource, PostgresStore store,
                                          IdempotencyProperties idempotency, TimeServiceProperties properties) {
            return new PostgresIdempotencyStore(dataSource, properties.postgresql().timeouts(),
                    System::currentTimeMillis, idempotency.retention(), idempotency.maxKeys());
        }
    }

    /** Runs {@link IdempotencyStore#purge} every minute. */
    static final class KeyPurge implements AutoCloseable {

        private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "timeservice-idempotency-purge");
            thread.setDaemon(true);
            return thread;
        });

        KeyPurge(IdempotencyStore store) {
            executor.scheduleWithFixedDelay(() -> {
                try {
                    store.purge();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "could not purge expired Idempotency-Keys; trying again", e);
                }
            }, PURGE_PERIOD_MILLIS, PURGE_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            executor.shutdownNow();
        }
    }
}
