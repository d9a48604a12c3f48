package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import io.timeservice.FlowAcrossKill;
import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 44's SIGKILL with keyed deliveries in flight on a flow clock, on the memory store with its journal
 * ({@link FlowAcrossKill}): the journal's claims (record 52, with the clock's time) rebuild each key's in-flight
 * count, held-back deliveries and token bucket exactly; the leases end on the restarted clock's time and give the
 * slots back.
 */
class FlowCrashIT {

    @TempDir
    Path dataDir;

    @Test
    void afterASigkill_eachKeysInFlightHeldBackAndTokens_areAsTheyWere_andTheLeasesGiveTheSlotsBack()
            throws Exception {
        List<String> acknowledged;
        try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir)) {
            acknowledged = FlowAcrossKill.claimToTheLimits(new ServiceApi(service.baseUrl()));
            assertThat(service.kill()).as("exit status: SIGKILL").isEqualTo(128 + 9);
        }
        try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir)) {
            FlowAcrossKill.afterRestart(new ServiceApi(service.baseUrl()), acknowledged);
        }
    }
}
