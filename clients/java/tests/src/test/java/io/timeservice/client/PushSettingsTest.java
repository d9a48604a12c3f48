package io.timeservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import io.timeservice.testkit.TestClocks;
import io.timeservice.testkit.TimeServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A push clock's settings round-trip: what is set comes back, secrets only as their number. The target is a
 * loopback port nothing listens on and the clock is virtual and never advanced, so nothing is ever pushed; the test
 * kit's service allows loopback targets ({@code timeservice.push.allow-private-targets}).
 */
@ExtendWith(TimeServiceExtension.class)
class PushSettingsTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final PushTarget TARGET = PushTarget.to(URI.create("http://127.0.0.1:9/timers"))
            .withTimeout(Duration.ofSeconds(5)).withConcurrency(4).withHeader("X-Tenant", "acme")
            .withSecrets(SECRET, "rotating-in");

    @Test
    void pushSettings_comeBack_secretsOnlyAsTheirNumber(TimeServiceClient ts, TestClocks clocks) {
        ClockOptions options = ClockOptions.virtual().push(TARGET);
        ClockClient clock = clocks.create(options);

        ClockInfo info = clock.info();

        assertEquals(new PushTargetInfo(URI.create("http://127.0.0.1:9/timers"), Duration.ofSeconds(5), 4,
                Map.of("X-Tenant", "acme"), 2), info.push());
        assertFalse(info.queued());
        assertNotNull(info.deliveries());
        assertEquals(clock.name(), ts.createClock(clock.name(), options).info().name());    // the same again: 200
        TimeServiceException conflict = assertThrows(TimeServiceException.class,
                () -> ts.createClock(clock.name(), ClockOptions.virtual().push(TARGET.withSecrets(SECRET))));
        assertEquals("clock_conflict", conflict.code());
        String saved = clock.snapshot().json();
        assertTrue(saved.contains("\"secretsCount\":2"), saved);
        assertFalse(saved.contains(SECRET) || saved.contains("rotating-in"), saved);
        assertFalse(TARGET.toString().contains(SECRET), TARGET::toString);
    }

    @Test
    void pushDefaults_areTheServicesOwn(TestClocks clocks) {
        ClockInfo info = clocks.create(ClockOptions.virtual().push(PushTarget.to(URI.create("http://127.0.0.1:9/"))))
                .info();

        assertEquals(Duration.ofSeconds(10), info.push().timeout());
        assertEquals(16, info.push().concurrency());
        assertEquals(Map.of(), info.push().headers());
        assertEquals(0, info.push().secretsCount());
        assertNull(clocks.create(ClockOptions.virtual()).info().push());
    }
}
