package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.timeservice.FlowAcrossKill;
import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;

/**
 * Issue 44's SIGKILL with keyed deliveries in flight on a flow clock, on the PostgreSQL store
 * ({@link FlowAcrossKill}): a new instance on the same database finds each key's in-flight count, held-back
 * deliveries and token bucket in its {@code flow_keys} row as they were; the leases end on the clock's time and the
 * triggers give the slots back.
 */
class FlowKillIT {

    @Test
    void afterASigkill_eachKeysInFlightHeldBackAndTokens_areAsTheyWere_andTheLeasesGiveTheSlotsBack()
            throws Exception {
        try (TestDatabase database = TestDatabase.create(FlowKillIT.class, 1)) {
            List<String> acknowledged;
            try (ServiceProcess service = PostgresService.start(database.jdbcUrl())) {
                acknowledged = FlowAcrossKill.claimToTheLimits(new ServiceApi(service.baseUrl()));
                assertThat(service.kill()).as("exit status: SIGKILL").isEqualTo(128 + 9);
            }
            try (ServiceProcess service = PostgresService.start(database.jdbcUrl())) {
                FlowAcrossKill.afterRestart(new ServiceApi(service.baseUrl()), acknowledged);
            }
        }
    }
}
