package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.timeservice.RetryRaceAcrossKill;
import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;

/**
 * Issue 43's retry race across a SIGKILL on the PostgreSQL store ({@link RetryRaceAcrossKill}): the instance that
 * took the add, fired it and saw it acknowledged is killed; a new instance on the same database refuses or replays
 * every retry from the {@code reservations} and {@code idempotency_keys} rows and fires nothing twice.
 */
class RetryRaceKillIT {

    @Test
    void afterASigkill_aRetryOfAnAddThatLandedAndFired_isRefusedOrReplayed_neverFiredAgain() throws Exception {
        try (TestDatabase database = TestDatabase.create(RetryRaceKillIT.class, 1)) {
            RetryRaceAcrossKill.Landed landed;
            try (ServiceProcess service = PostgresService.start(database.jdbcUrl())) {
                landed = RetryRaceAcrossKill.landAndFire(new ServiceApi(service.baseUrl()));
                assertThat(service.kill()).as("exit status: SIGKILL").isEqualTo(128 + 9);
            }
            try (ServiceProcess service = PostgresService.start(database.jdbcUrl())) {
                RetryRaceAcrossKill.retriesAfterRestart(new ServiceApi(service.baseUrl()), landed);
            }
        }
    }
}
