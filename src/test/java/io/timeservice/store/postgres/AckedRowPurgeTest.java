package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.model.ClockSettings;
import org.junit.jupiter.api.Test;

/**
 * The purge of acknowledged deliveries ({@link AckedRowPurge}): when a round is due (times are the database's
 * clock, passed in), what it deletes on a real PostgreSQL, and the firing loop running it.
 */
class AckedRowPurgeTest {

    private static final Duration NEVER_IN_THIS_TEST = Duration.ofMinutes(10);

    /** A round that deletes what it is told to, and records each call's retention and limit. */
    private static final class Rounds implements AckedRowPurge.Round {
        final List<long[]> calls = new ArrayList<>();
        final List<Integer> answers = new ArrayList<>();

        @Override
        public int purge(long olderThanMillis, int limit) {
            calls.add(new long[] {olderThanMillis, limit});
            return answers.isEmpty() ? 0 : answers.remove(0);
        }
    }

    private static PostgresFiringLoop.Settings settings(Duration slowPoll, int roundSize, Duration retention) {
        return new PostgresFiringLoop.Settings(slowPoll, roundSize, retention, NEVER_IN_THIS_TEST);
    }

    @Test
    void theFirstLook_purges_andTheNextRoundIsDueASlowPollLater_whenTheRetentionIsLonger() {
        Rounds rounds = new Rounds();
        AckedRowPurge purge = new AckedRowPurge(rounds, settings(Duration.ofSeconds(5), 100, Duration.ofMinutes(5)));

        assertThat(purge.purgeIfDue(1_000)).as("a full round").isFalse();
        assertThat(rounds.calls).singleElement().satisfies(call -> assertThat(call).containsExactly(300_000, 100));
        assertThat(purge.nextPurgeMillis()).isEqualTo(6_000);

        assertThat(purge.purgeIfDue(5_999)).isFalse();
        assertThat(rounds.calls).as("no round before it is due").hasSize(1);
        purge.purgeIfDue(6_000);
        assertThat(rounds.calls).hasSize(2);
        assertThat(purge.nextPurgeMillis()).isEqualTo(11_000);
    }

    @Test
    void aFullRound_isFollowedAtOnce_byTheNext() {
        Rounds rounds = new Rounds();
        rounds.answers.add(100);
        rounds.answers.add(99);
        AckedRowPurge purge = new AckedRowPurge(rounds, settings(Duration.ofSeconds(5), 100, Duration.ofMinutes(5)));

        assertThat(purge.purgeIfDue(1_000)).as("a full round").isTrue();
        assertThat(purge.nextPurgeMillis()).isEqualTo(1_000);
        assertThat(purge.purgeIfDue(1_000)).as("a round that was not full").isFalse();
        assertThat(purge.nextPurgeMillis()).isEqualTo(6_000);
        assertThat(rounds.calls).hasSize(2);
    }

    @Test
    void roundsComeEveryRetention_whenItIsShorterThanTheSlowPoll_butNotMoreOftenThanTheMinimum() {
        AckedRowPurge everyRetention = new AckedRowPurge(new Rounds(), settings(Duration.ofSeconds(5), 100,
                Duration.ofSeconds(2)));
        everyRetention.purgeIfDue(0);
        assertThat(everyRetention.nextPurgeMillis()).isEqualTo(2_000);

        AckedRowPurge atMostTheMinimum = new AckedRowPurge(new Rounds(), settings(Duration.ofSeconds(5), 100,
                Duration.ZERO));
        atMostTheMinimum.purgeIfDue(0);
        assertThat(atMostTheMinimum.nextPurgeMillis()).isEqualTo(AckedRowPurge.MIN_EVERY_MILLIS);
    }

    @Test
    void aRound_deletesOnlyAcknowledgedDeliveries_pastTheRetention() {
        try (TestDatabase database = TestDatabase.create(AckedRowPurgeTest.class, 2);
             PostgresStore store = openStore(database)) {
            store.clocks().create("s", ClockSettings.Mode.SYSTEM, 0, null);
            store.timerChanges().add("s", "done", 0, 0, null);
            store.timerChanges().add("s", "open", 0, 0, null);
            assertThat(store.clockFiring().fireDue("s", 10)).isEqualTo(2);
            ClaimedDelivery done = store.deliveries().claim("s", 1, 30_000).get(0);
            assertThat(store.deliveries().ack("s", done.id(), done.claim().toString())).isTrue();

            assertThat(AckedRowPurge.purge(store.jdbc(), 3_600_000, 100)).as("acked within the retention").isZero();
            assertThat(AckedRowPurge.purge(store.jdbc(), 0, 100)).isEqualTo(1);
            assertThat(database.queryLong("SELECT count(*) FROM deliveries WHERE state = 'acked'")).isZero();
            assertThat(database.queryLong("SELECT count(*) FROM deliveries")).as("the open delivery").isEqualTo(1);
        }
    }

    @Test
    void theFiringLoop_purgesAcknowledgedDeliveries_afterTheRetention() throws Exception {
        try (TestDatabase database = TestDatabase.create(AckedRowPurgeTest.class, 6);
             PostgresStore store = openStore(database)) {
            store.clocks().create("s", ClockSettings.Mode.SYSTEM, 0, null);
            store.timerChanges().add("s", "done", 0, 0, null);
            store.startFiring(settings(NEVER_IN_THIS_TEST, 100, Duration.ZERO));
            Counts.awaitAtLeast(() -> count(database, "ready"), 1, "ready");
            ClaimedDelivery claimed = store.deliveries().claim("s", 1, 30_000).get(0);
            assertThat(store.deliveries().ack("s", "done", claimed.claim().toString())).isTrue();

            Counts.awaitAtLeast(() -> count(database, "acked") == 0 ? 1 : 0, 1, "the acked delivery purged");
        }
    }

    private static PostgresStore openStore(TestDatabase database) {
        return PostgresStore.open(database.dataSource(), 100_000, 100_000_000, 10, ClockSettings.Mode.VIRTUAL);
    }

    private static int count(TestDatabase database, String state) {
        return (int) database.queryLong("SELECT count(*) FROM deliveries WHERE state = '" + state + "'");
    }
}
