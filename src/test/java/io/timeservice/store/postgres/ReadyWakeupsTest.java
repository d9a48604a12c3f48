package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Long-polling claims on one instance, woken by deliveries another instance makes ready: by LISTEN/NOTIFY, again
 * after the listener's connection was terminated, and by the slow poll alone when nothing listens. A claim waits up
 * to 30 s; the tests that rely on the notification set a slow poll of 10 minutes, so only the notification can end
 * the wait in time.
 */
class ReadyWakeupsTest {

    private static final Duration NEVER_IN_THIS_TEST = Duration.ofMinutes(10);

    private TestDatabase database;
    private PostgresStore claimer;
    private PostgresStore producer;
    private ExecutorService pool;

    @BeforeEach
    void openTwoInstances() {
        database = TestDatabase.create(ReadyWakeupsTest.class, 6);
        claimer = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 10, ClockSettings.Mode.VIRTUAL);
        producer = PostgresStore.open(database.dataSource(), 1_000, 1_000_000, 10, ClockSettings.Mode.VIRTUAL);
        producer.clocks().create("q", ClockSettings.Mode.VIRTUAL, 0, ClockSettings.DeliveryMode.QUEUE);
        pool = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void close() {
        pool.shutdownNow();
        claimer.close();
        producer.close();
        database.close();
    }

    @Test
    void aWaitingClaim_isWokenByAnotherInstancesAdvance() throws Exception {
        claimer.startWakeups(NEVER_IN_THIS_TEST);
        Counts.awaitAtLeast(() -> claimer.wakeups().listens(), 1, "listening");

        assertThat(fireWhileAClaimWaits()).extracting(ClaimedDelivery::id).containsExactly("a", "b");
    }

    @Test
    void aListenerWhoseConnectionWasTerminated_listensAgain_andWakesClaims() throws Exception {
        claimer.startWakeups(NEVER_IN_THIS_TEST);
        Counts.awaitAtLeast(() -> claimer.wakeups().listens(), 1, "listening");

        assertThat(database.queryLong("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
                + " WHERE application_name = 'timeservice-listener-" + database.schema() + "'")).isEqualTo(1);
        Counts.awaitAtLeast(() -> claimer.wakeups().listens(), 2, "listening again");

        assertThat(fireWhileAClaimWaits()).extracting(ClaimedDelivery::id).containsExactly("a", "b");
    }

    /**
     * The primary vanished without closing its connections (a failover after a host or network failure): the
     * listener's socket stays open and silent. Its heartbeat finds that out, and it listens again on a new connection
     * (through the same proxy, as a multi-host URL reaches the new primary), where the other instance's advance wakes
     * the claim.
     */
    @Test
    void aListenerWhoseConnectionWentSilent_connectsAnewAfterItsHeartbeat_andWakesClaims() throws Exception {
        try (StallingProxy proxy = StallingProxy.toTestDatabase()) {
            PGSimpleDataSource throughProxy = new PGSimpleDataSource();
            throughProxy.setURL(proxy.through(database.jdbcUrl()));
            claimer.wakeups().heartbeat(Duration.ofMillis(300));
            claimer.startWakeups(NEVER_IN_THIS_TEST, throughProxy);
            Counts.awaitAtLeast(() -> claimer.wakeups().listens(), 1, "listening");

            proxy.stallOpenConnections();

            Counts.awaitAtLeast(() -> claimer.wakeups().listens(), 2, "listening again");
            assertThat(fireWhileAClaimWaits()).extracting(ClaimedDelivery::id).containsExactly("a", "b");
        }
    }

    @Test
    void withoutAListener_theSlowPollFindsWhatBecameReady() throws Exception {
        assertThat(fireWhileAClaimWaits()).extracting(ClaimedDelivery::id).containsExactly("a", "b");
    }

    /** As the memory store's nack does: the claim waiting for the clock hears of it at once, not at the slow poll. */
    @Test
    void aNackThatMakesTheDeliveryReadyAtOnce_wakesAWaitingClaim() throws Exception {
        producer.timerChanges().add("q", "a", 1, 0, null);
        producer.clockFiring().advance("q", 1L, null, Integer.MAX_VALUE);
        ClaimedDelivery held = producer.deliveries().claim("q", 1, 30_000).get(0);
        claimer.startWakeups(NEVER_IN_THIS_TEST); // after the advance: only the nack can notify it now
        Counts.awaitAtLeast(() -> claimer.wakeups().listens(), 1, "listening");
        Future<List<ClaimedDelivery>> claim = pool.submit(() -> claimer.deliveries().claim("q", 10, 30_000, 30_000));
        Counts.awaitAtLeast(() -> claimer.wakeups().waiting(), 1, "a waiting claim");

        assertThat(producer.deliveries().nack("q", "a", held.claim().toString(), 0L).state())
                .isEqualTo(Delivery.State.READY);

        assertThat(claim.get(25, TimeUnit.SECONDS)).extracting(ClaimedDelivery::attempt).containsExactly(2);
    }

    @Test
    void aWaitThatEndsEmpty_answersNothing() {
        claimer.startWakeups(Duration.ofMillis(50));

        assertThat(claimer.deliveries().claim("q", 10, 30_000, 120)).isEmpty();
    }

    @Test
    void endWaits_answersAWaitingClaimAtOnce_andLaterOnesWithoutWaiting_untilWaitsAreAllowedAgain() throws Exception {
        claimer.startWakeups(Duration.ofMinutes(10)); // only endWaits can end the first wait in time
        Future<List<ClaimedDelivery>> waiting = pool.submit(() -> claimer.deliveries().claim("q", 10, 30_000, 30_000));
        Counts.awaitAtLeast(() -> claimer.wakeups().waiting(), 1, "a waiting claim");

        claimer.deliveries().endWaits();

        assertThat(waiting.get(25, TimeUnit.SECONDS)).isEmpty();  // before its own 30 s
        assertThat(pool.submit(() -> claimer.deliveries().claim("q", 10, 30_000, 30_000)).get(25, TimeUnit.SECONDS))
                .isEmpty();
        claimer.deliveries().allowWaits();
        long start = System.nanoTime();
        assertThat(claimer.deliveries().claim("q", 10, 30_000, 300)).isEmpty();
        assertThat(System.nanoTime() - start).as("waited its 300 ms again").isGreaterThanOrEqualTo(300_000_000L);
    }

    /**
     * Behind pgbouncer in transaction mode the listener needs a session of its own: it listens on a direct connection
     * ({@code timeservice.postgresql.direct-url}) while both instances' calls, the producer's NOTIFY included, go
     * through the pooler.
     */
    @Test
    void behindPgBouncer_aListenerOnADirectConnection_isWokenByAnAdvanceThroughThePooler() throws Exception {
        try (PgBouncer pgBouncer = PgBouncer.start(database.schema());
             HikariDataSource pooled = new HikariDataSource(pooledConfig(pgBouncer))) {
            PostgresStore pooledClaimer = PostgresStore.open(pooled, 1_000, 1_000_000, 10, ClockSettings.Mode.VIRTUAL);
            PostgresStore pooledProducer = PostgresStore.open(pooled, 1_000, 1_000_000, 10,
                    ClockSettings.Mode.VIRTUAL);
            try {
                PGSimpleDataSource direct = new PGSimpleDataSource();
                direct.setURL(database.jdbcUrl());
                pooledClaimer.startWakeups(NEVER_IN_THIS_TEST, direct);
                Counts.awaitAtLeast(() -> pooledClaimer.wakeups().listens(), 1, "listening");

                assertThat(fireWhileAClaimWaits(pooledClaimer, pooledProducer)).extracting(ClaimedDelivery::id)
                        .containsExactly("a", "b");
            } finally {
                pooledClaimer.close();
                pooledProducer.close();
            }
        }
    }

    private static HikariConfig pooledConfig(PgBouncer pgBouncer) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(pgBouncer.jdbcUrl());
        config.setMaximumPoolSize(4);
        return config;
    }

    private List<ClaimedDelivery> fireWhileAClaimWaits() throws Exception {
        return fireWhileAClaimWaits(claimer, producer);
    }

    /** Starts a claim that waits (30 s), then fires two deliveries on the other instance; the claim's answer. */
    private List<ClaimedDelivery> fireWhileAClaimWaits(PostgresStore claimer, PostgresStore producer)
            throws Exception {
        producer.timerChanges().add("q", "a", 1, 0, null);
        producer.timerChanges().add("q", "b", 1, 0, null);
        Future<List<ClaimedDelivery>> claim = pool.submit(() -> claimer.deliveries().claim("q", 10, 30_000, 30_000));
        Counts.awaitAtLeast(() -> claimer.wakeups().waiting(), 1, "a waiting claim");

        producer.clockFiring().advance("q", 1L, null, Integer.MAX_VALUE);

        return claim.get(25, TimeUnit.SECONDS); // before the claim's own 30 s: woken, not timed out
    }
}
