package io.timeservice.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import io.timeservice.client.TimeServiceClient;
import io.timeservice.testkit.TimeServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Example 2 runs as a program against the test run's service. */
@ExtendWith(TimeServiceExtension.class)
class QuickStartTest {

    @Test
    void quickStart_sendsTheTwoInvoicesDueWithin30Days(TimeServiceClient ts) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        List<String> sent = QuickStart.run(ts.uri(), new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertEquals(Set.of("42", "43"), Set.copyOf(sent));
        String output = printed.toString(StandardCharsets.UTF_8);
        assertTrue(output.contains("fired: 2 timers"), output);
        assertTrue(output.contains("reminding customer 7 of invoice 42 (attempt 1)"), output);
        assertTrue(output.contains("still pending: invoice-44"), output);
    }
}
