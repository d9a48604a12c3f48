package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import io.timeservice.RetryRaceAcrossKill;
import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 43's retry race across a SIGKILL on the memory store with its journal ({@link RetryRaceAcrossKill}): the
 * reservation is rebuilt from the journaled firing and ack, and the kept answer read back from
 * {@code idempotency.log}, so the restarted process refuses or replays every retry and fires nothing twice.
 */
class RetryRaceCrashIT {

    @TempDir
    Path dataDir;

    @Test
    void afterASigkill_aRetryOfAnAddThatLandedAndFired_isRefusedOrReplayed_neverFiredAgain() throws Exception {
        RetryRaceAcrossKill.Landed landed;
        try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir)) {
            landed = RetryRaceAcrossKill.landAndFire(new ServiceApi(service.baseUrl()));
            assertThat(service.kill()).as("exit status: SIGKILL").isEqualTo(128 + 9);
        }
        try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir)) {
            RetryRaceAcrossKill.retriesAfterRestart(new ServiceApi(service.baseUrl()), landed);
        }
    }
}
