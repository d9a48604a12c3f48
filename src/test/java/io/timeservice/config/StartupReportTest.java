package io.timeservice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.timeservice.TimeServiceApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The one start-up line reports the configuration in effect, not a fixed text. */
@ExtendWith(OutputCaptureExtension.class)
class StartupReportTest {

    @Test
    void theReadyLine_namesTheStoreAndTheDefaultClocksMode(CapturedOutput output) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TimeServiceApplication.class)
                .run("--server.port=0", "--timeservice.durability=none", "--timeservice.clock.mode=system")) {
            assertThat(output.getOut()).containsPattern(
                    "TimeService ready: port=\\d+ store=memory arity=4 .* clock=system durability=none ");
        }
    }
}
