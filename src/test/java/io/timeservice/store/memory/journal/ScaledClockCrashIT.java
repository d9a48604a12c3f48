package io.timeservice.store.memory.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.ServiceApi;
import io.timeservice.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * SIGKILL right after acknowledged rate changes of a scaled clock: after a restart on the same data directory the
 * clock is scaled, at the last rate it was given, at exactly the time it was frozen at (rate 0 keeps the comparison
 * exact), with its timer; a later rate change makes that timer fire by itself.
 */
class ScaledClockCrashIT {

    @TempDir
    Path dataDir;

    @Test
    void sigkillAfterRateChanges_restartsOnTheSameFunction() throws Exception {
        long frozenAt;
        try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir)) {
            ServiceApi api = new ServiceApi(service.baseUrl());
            api.expect(201, "PUT", "/clocks/soak", "{\"mode\":\"scaled\",\"rate\":0,\"now\":1000}");
            api.expect(201, "POST", "/clocks/soak/timers", "{\"id\":\"in-a-day\",\"delay\":86400000}");
            api.expect(200, "PATCH", "/clocks/soak", "{\"rate\":1000}");
            frozenAt = api.expect(200, "PATCH", "/clocks/soak", "{\"rate\":0}").get("now").asLong();
            assertThat(frozenAt).isGreaterThanOrEqualTo(1000);
            assertThat(service.kill()).isEqualTo(137);
        }
        try (ServiceProcess service = ServiceProcess.startWithJournal(dataDir)) {
            ServiceApi api = new ServiceApi(service.baseUrl());
            JsonNode clock = api.expect(200, "GET", "/clocks/soak", null);
            assertThat(clock.get("mode").asString()).isEqualTo("scaled");
            assertThat(clock.get("rate").asDouble()).isZero();
            assertThat(clock.get("now").asLong()).isEqualTo(frozenAt);
            assertThat(clock.get("size").asInt()).isEqualTo(1);
            api.expect(200, "PUT", "/clocks/soak", "{\"mode\":\"scaled\",\"rate\":0,\"now\":1000}");

            api.expect(200, "PATCH", "/clocks/soak", "{\"rate\":100000}"); // a day in under a wall second
            List<JsonNode> claimed = new ArrayList<>();
            for (int poll = 0; poll < 6 && claimed.isEmpty(); poll++) {
                claimed.addAll(api.claim("soak", 1, 60_000, 20_000));
            }
            assertThat(claimed).extracting(d -> d.get("id").asString()).containsExactly("in-a-day");
        }
    }
}
