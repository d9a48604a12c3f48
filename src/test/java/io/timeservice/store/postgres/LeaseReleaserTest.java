package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.RetryPolicy;
import org.junit.jupiter.api.Test;

/**
 * The deliveries' retry step on a real PostgreSQL ({@link LeaseReleaser}): leases that ended become waiting or dead,
 * waiting deliveries become ready at their retry time.
 */
class LeaseReleaserTest extends QueueClockTest {

    @Test
    void theRetryStep_movesALongExpiredLeaseThroughWaitingToReady_atTheRetryTime() {
        fired("a", "0");
        ClaimedDelivery claimed = deliveries().claim(clock, 1, 1_000).get(0);

        advance(1_000 + 60_000 + 5); // the lease ended at 1001, its retry came due at 61001

        ClaimedDelivery again = deliveries().claim(clock, 1, 1_000).get(0);
        assertThat(again.sequence()).isEqualTo(claimed.sequence());
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.readyAt()).isEqualTo(claimed.leaseUntil() + 60_000); // ready since its retry time
        assertThat(again.claim()).isNotEqualTo(claimed.claim());
    }

    @Test
    void releaseDue_saysHowManyLeasesExpired_howManyOfThemDied_andHowManyRetriesBecameReady() {
        String system = "sys-release-" + clock;
        store.clocks().create(system, ClockSettings.Mode.SYSTEM, 0, null, new RetryPolicy(2, 60_000, 2.0, 600_000, 0));
        for (String id : new String[] {"x", "y", "z"}) {
            store.timerChanges().add(system, id, 0, 0, null);
        }
        assertThat(store.clockFiring().fireDue(system, 100)).isEqualTo(3);
        List<ClaimedDelivery> claimed = deliveries().claim(system, 3, 30_000);
        assertThat(claimed).extracting(ClaimedDelivery::id).containsExactly("x", "y", "z");
        deliveries().nack(system, "y", token(claimed.get(1)), null);              // waiting a minute
        database.execute("UPDATE deliveries SET retry_at = db_now_ms() WHERE clock = '" + system + "' AND id = 'y'");
        database.execute("UPDATE deliveries SET attempt = 2 WHERE clock = '" + system + "' AND id = 'z'");
        database.execute("UPDATE deliveries SET lease_until = db_now_ms() - 1000 WHERE clock = '" + system
                + "' AND id IN ('x', 'z')");

        // x waits for its second attempt (a minute after its lease's end), z died after its last, y is ready
        assertThat(store.leases().releaseDue(system, 100)).isEqualTo(new LeaseReleaser.Released(2, 1, 1));
        assertThat(deliveries().count(system, "waiting")).isEqualTo(1);
        assertThat(deliveries().count(system, "dead")).isEqualTo(1);
        assertThat(store.leases().releaseDue(system, 100)).isEqualTo(new LeaseReleaser.Released(0, 0, 0));
        store.clocks().delete(system);
    }
}
