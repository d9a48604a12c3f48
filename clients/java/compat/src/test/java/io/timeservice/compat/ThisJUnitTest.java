package io.timeservice.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestEngine;

/**
 * The project runs on the JUnit it declares, not on one the kit brought along: so {@code TimeServiceExtensionTest}
 * beside it tests the kit on that JUnit.
 */
class ThisJUnitTest {

    @Test
    void theTestsRunOnTheJUnitTheirProjectDeclares() {
        String expected = System.getProperty("expected.junit.version");
        assertNotNull(expected, "surefire sets expected.junit.version");
        assertEquals(expected, Test.class.getPackage().getImplementationVersion(), "junit-jupiter-api");
        // the platform is versioned 1.x beside Jupiter 5.x, and as Jupiter from 6 on
        String platform = expected.startsWith("5.") ? "1." + expected.substring(2) : expected;
        assertEquals(platform, TestEngine.class.getPackage().getImplementationVersion(), "junit-platform-engine");
    }
}
