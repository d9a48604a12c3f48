package io.timeservice.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.timeservice.client.ClockClient;
import io.timeservice.client.TimeServiceClient;
import io.timeservice.client.TimeServiceException;
import io.timeservice.client.Timer;
import io.timeservice.testkit.TestClock;
import io.timeservice.testkit.TestClocks;
import io.timeservice.testkit.TimeServiceExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.TestEngine;

/**
 * A user's tests with the kit, run by each project under compat/ on the JUnit it declares: every part of the kit that
 * touches JUnit's API (parameters, the stores that keep a test's clocks and the run's service, their closing).
 */
@ExtendWith(TimeServiceExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KitOnThisJUnitTest {

    private static String earlierClock;
    private static String earlierFork;
    private ClockClient beforeEachClock;

    @BeforeEach
    void remember(ClockClient clock) {
        beforeEachClock = clock;
    }

    @Test
    @Order(1)
    void runsOnTheJUnitItsProjectDeclares() {
        String expected = System.getProperty("expected.junit.version");
        assertNotNull(expected, "surefire sets expected.junit.version");
        assertEquals(expected, Test.class.getPackage().getImplementationVersion(), "junit-jupiter-api");
        // the platform is versioned 1.x beside Jupiter 5.x, and as Jupiter from 6 on
        String platform = expected.startsWith("5.") ? "1." + expected.substring(2) : expected;
        assertEquals(platform, TestEngine.class.getPackage().getImplementationVersion(), "junit-platform-engine");
    }

    @Test
    @Order(2)
    void aTest_getsAFreshClock_sharedWithBeforeEach_andMoreFromTestClocks(ClockClient clock, TestClocks clocks) {
        assertEquals(beforeEachClock.name(), clock.name());
        assertEquals(Instant.EPOCH, clock.now());
        clock.add("reminder", Duration.ofDays(3));
        ClockClient fork = clocks.fork(clock);

        List<Timer> fired = fork.advance(Duration.ofDays(3));
        assertEquals("reminder", fired.get(0).id());
        assertEquals(1, clock.info().size());
        earlierClock = clock.name();
        earlierFork = fork.name();
    }

    @Test
    @Order(3)
    void theEarlierTestsClocks_areDeletedAfterIt(TimeServiceClient ts, ClockClient clock) {
        assertNotEquals(earlierClock, clock.name());
        for (String name : new String[] {earlierClock, earlierFork}) {
            assertNotNull(name);
            TimeServiceException gone = assertThrows(TimeServiceException.class, () -> ts.clock(name).info());
            assertEquals("clock_not_found", gone.code());
        }
    }

    @Test
    @Order(4)
    void testClock_setsStartAndQueueing_andTheClientIsTheRunsOne(
            @TestClock(start = 5_000, queued = true) ClockClient clock, TimeServiceClient first,
            TimeServiceClient second) {
        assertEquals(Instant.ofEpochMilli(5_000), clock.now());
        assertTrue(clock.info().queued());
        assertSame(first, second);
    }
}
