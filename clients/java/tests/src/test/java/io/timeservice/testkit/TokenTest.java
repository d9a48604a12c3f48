package io.timeservice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import io.timeservice.client.ClockClient;
import io.timeservice.client.TimeServiceClient;
import io.timeservice.client.TimeServiceException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * {@code connect(uri, token)} against a service that wants tokens (a second one, started with a read and a write
 * token): the token is sent, and the service's 401 and 403 arrive as {@link TimeServiceException}s.
 */
class TokenTest {

    private static final String READ = "read-token-0123456789abcdef";
    private static final String WRITE = "write-token-0123456789abcdef";

    private static LocalTimeService service;

    @BeforeAll
    static void start() {
        service = LocalTimeService.start("--timeservice.security.read-tokens=" + READ,
                "--timeservice.security.write-tokens=" + WRITE);
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    @Test
    void writeToken_mayChange_readTokenMayOnlyRead_noTokenNothing() {
        ClockClient writer = TimeServiceClient.connect(service.uri(), WRITE).defaultClock();
        ClockClient reader = TimeServiceClient.connect(service.uri(), READ).defaultClock();
        ClockClient stranger = TimeServiceClient.connect(service.uri()).defaultClock();
        ClockClient wrong = TimeServiceClient.connect(service.uri(), "not-a-token-0123456789").defaultClock();

        writer.add("A", Duration.ofSeconds(1));

        assertEquals("A", reader.get("A").orElseThrow().id());
        refused(403, "forbidden", () -> reader.add("B", Duration.ZERO));
        refused(401, "unauthorized", stranger::info);
        refused(401, "unauthorized", wrong::info);
        assertEquals(1, writer.info().size());
    }

    private static void refused(int status, String code, Executable call) {
        TimeServiceException refused = assertThrows(TimeServiceException.class, call);
        assertEquals(status, refused.status());
        assertEquals(code, refused.code());
    }
}
