package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.convert.support.DefaultConversionService;

/**
 * The trace flag answers every value as {@code @RequestParam(defaultValue = "false") boolean} did: Spring's default
 * value for an absent or empty parameter, its conversion for the rest, a conversion failure refused.
 */
class RequestArgumentsTest {

    private static final DefaultConversionService SPRING = new DefaultConversionService();

    @Test
    void traceFlagMatchesSpringsConversion() {
        List<String> values = new ArrayList<>(List.of("", " ", "\t", "true", "TRUE", "True", " true ", "on", "yes",
                "1", "false", "off", "no", "0", "maybe", "t", "y", "2", "-1", "truee", "tru e", "ON\n", "İ", "ı",
                "\u00a0true", "\u0661"));
        Random random = new Random(17);
        String alphabet = "trueTRUEfalsFALSonyONY01 \t\u0130\u0131x";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder value = new StringBuilder();
            for (int n = random.nextInt(7); n > 0; n--) {
                value.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            values.add(value.toString());
        }
        values.add(null);
        int refused = 0;
        for (String value : values) {
            Boolean expected = springAnswer(value);
            if (expected == null) {
                refused++;
                assertThatThrownBy(() -> RequestArguments.traceFlag(value)).as("value %s", value)
                        .isInstanceOfSatisfying(ApiProblem.class, problem -> {
                            assertThat(problem.type()).isEqualTo(ProblemType.INVALID_REQUEST);
                            assertThat(problem.getMessage()).isEqualTo("query parameter \"trace\" has an invalid value");
                        });
            } else {
                assertThat(RequestArguments.traceFlag(value)).as("value [%s]", value).isEqualTo(expected);
            }
        }
        assertThat(refused).as("refused values among the random ones").isBetween(1, values.size() - 100);
    }

    /** What Spring MVC bound for {@code @RequestParam(defaultValue = "false") boolean}; null where it refused. */
    private static Boolean springAnswer(String value) {
        if (value == null || value.isEmpty()) {
            return false;   // the default value
        }
        try {
            Boolean converted = SPRING.convert(value, Boolean.class);
            return converted != null && converted;   // null (blank) becomes a primitive's false
        } catch (ConversionFailedException refused) {
            return null;
        }
    }
}
