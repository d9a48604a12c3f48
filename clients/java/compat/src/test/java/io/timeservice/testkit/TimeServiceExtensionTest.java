package io.timeservice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;

import io.timeservice.client.ClockClient;
import io.timeservice.client.ClockInfo;
import io.timeservice.client.TimeServiceClient;
import io.timeservice.client.TimeServiceException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the extension promises: a fresh virtual clock per test, deleted after it, on the run's one service. Run by each
 * project under compat/, on the JUnit that project declares.
 */
@ExtendWith(TimeServiceExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TimeServiceExtensionTest {

    private static String earlierClock;
    private static String laterClock;
    private ClockClient beforeEachClock;

    @BeforeEach
    void remember(ClockClient clock) {
        beforeEachClock = clock;
    }

    @Test
    @Order(1)
    void eachTest_getsAFreshVirtualClockAtZero_namedAfterIt(ClockClient clock) {
        ClockInfo info = clock.info();

        assertEquals(Instant.EPOCH, info.now());
        assertEquals(0, info.size());
        assertFalse(info.system());
        assertFalse(info.queued());
        assertTrue(clock.name().startsWith("test-eachTest_getsAFreshVirtualClockAtZero"), clock.name());
        assertTrue(clock.name().length() <= 64, clock.name());
        clock.add("A", Duration.ofDays(1));
        clock.advance(Duration.ofHours(1));
        earlierClock = clock.name();
    }

    @Test
    @Order(2)
    void theEarlierTestsClock_isDeleted_andThisOneIsNew(TimeServiceClient ts, ClockClient clock) {
        assertNotNull(earlierClock);
        assertNotEquals(earlierClock, clock.name());
        assertEquals(Instant.EPOCH, clock.now());
        TimeServiceException gone = assertThrows(TimeServiceException.class, () -> ts.clock(earlierClock).info());
        assertEquals("clock_not_found", gone.code());
    }

    @Test
    @Order(3)
    void testClocks_forkAndLoad_forThisTest(ClockClient clock, TestClocks clocks) {
        clock.add("A", Duration.ofDays(1));
        ClockClient fork = clocks.fork(clock);
        ClockClient loaded = clocks.load(clock.snapshot());

        assertEquals(1, fork.info().size());
        assertEquals(1, loaded.info().size());
        assertTrue(fork.name().startsWith("test-testClocks_forkAndLoad"), fork.name());
        earlierClock = fork.name();
        laterClock = loaded.name();
    }

    @Test
    @Order(4)
    void theEarlierTestsForksAndLoads_areDeleted(TimeServiceClient ts) {
        for (String name : new String[] {earlierClock, laterClock}) {
            TimeServiceException gone = assertThrows(TimeServiceException.class, () -> ts.clock(name).info());
            assertEquals("clock_not_found", gone.code());
        }
    }

    @Test
    void beforeEach_andTheTest_shareTheClock_aSecondParameterGetsAnother(ClockClient clock, ClockClient other) {
        assertEquals(beforeEachClock.name(), clock.name());
        assertNotEquals(clock.name(), other.name());
        clock.advance(Duration.ofSeconds(1));
        assertEquals(Instant.EPOCH, other.now());
    }

    @Test
    void testClock_setsTheStartAndQueueing(@TestClock(start = 5_000, queued = true) ClockClient clock) {
        ClockInfo info = clock.info();

        assertEquals(Instant.ofEpochMilli(5_000), info.now());
        assertTrue(info.queued());
    }

    @Test
    void theClient_isTheRunsOne(TimeServiceClient first, TimeServiceClient second) {
        assertSame(first, second);
        assertEquals("default", first.defaultClock().info().name());
    }
}
