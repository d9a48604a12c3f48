package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.timeservice.config.TimeServiceProperties;
import io.timeservice.model.ProblemException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.mock.http.MockHttpInputMessage;

/**
 * Every request body, however wrong, is bound or refused with a {@link ProblemException} (a problem+json 4xx),
 * never failed with another exception (a 500): seeded random bodies of every request type, most of them wrong in some
 * way, some nearly right (strings with and without lone surrogates, an unexpected member). A binding failure at an
 * array's item used to fail with a NullPointerException.
 */
class RandomBodyBindingTest {

    private final StrictJsonConverter json = new StrictJsonConverter(new Binder(new MapConfigurationPropertySource(
            Map.of("timeservice.limits.max-body-bytes", 4096, "timeservice.limits.max-payload-bytes", 100))).bindOrCreate("timeservice",
            TimeServiceProperties.class));

    private static final List<Class<? extends JsonRequest>> TYPES = List.of(JsonRequest.AddTimer.class,
            JsonRequest.EditTimer.class, JsonRequest.Advance.class, JsonRequest.PutClock.class,
            JsonRequest.Claim.class, JsonRequest.Ack.class, JsonRequest.AckAll.class, JsonRequest.Nack.class,
            JsonRequest.Extend.class, JsonRequest.Batch.class);
    private static final String[] NAMES = {"id", "delay", "priority", "payload", "by", "to", "now", "mode",
        "delivery", "retry", "maxAttempts", "multiplier", "jitter", "max", "lease", "wait", "claim", "acks",
        "retryAfter", "ops", "op", "unknown", "Id", "d\\u0065lay", "\\uD800", "\\uD83D\\uDE00", ""};
    private static final String[] SCALARS = {"0", "1", "-1", "7", "2147483647", "2147483648", "-2147483649",
        "9223372036854775807", "9223372036854775808", "1.5", "2.0", "1e3", "-0", "1e400", "0.1", "true", "false",
        "null", "\"\"", "\"A\"", "\"virtual\"", "\"system\"", "\"queue\"", "\"response\"", "\"caf\\u00e9\"",
        "\"\\uD800\"", "\"\\uDC00x\"", "\"\\uD83D\\uDE00\"", "\"a\\\\u0064800\"", "\"tab\\there\"", "\"7\"",
        "123456789012345678901", "1.000", "NaN", "'x'", "01"};

    @Test
    void everyBody_isBoundOrRefused_neverFailed() {
        Random random = new Random(20261201);
        int bound = 0;
        int refused = 0;
        for (int i = 0; i < 30_000; i++) {
            Class<? extends JsonRequest> type = TYPES.get(random.nextInt(TYPES.size()));
            String body = random.nextBoolean() ? body(random) : nearlyRight(random, type);
            try {
                json.read(type, new MockHttpInputMessage(body.getBytes(StandardCharsets.UTF_8)));
                bound++;
            } catch (ProblemException refusal) {
                assertThat(refusal.getMessage()).as(body).doesNotContain("`", "jackson", "Exception");
                refused++;
            } catch (RuntimeException | IOException failure) {
                throw new AssertionError(type.getSimpleName() + " " + body + " failed with " + failure, failure);
            }
        }
        assertThat(bound).as("bodies bound").isGreaterThan(1_000);
        assertThat(refused).as("bodies refused").isGreaterThan(1_000);
    }

    private static final String[] STRINGS = {"\"A\"", "\"caf\\u00e9\"", "\"\\uD800\"", "\"x\\udc00\"",
        "\"\\uD83D\\uDE00\"", "\"\\uD83Dx\"", "\"\"", "\"a\\\\uD800\""};
    private static final String[] INTEGERS = {"0", "5", "-3", "2147483647", "9223372036854775807"};

    /** A body of the type's own shape, its values mostly right: strings with and without (lone) surrogates. */
    private static String nearlyRight(Random random, Class<? extends JsonRequest> type) {
        String string = STRINGS[random.nextInt(STRINGS.length)];
        String integer = INTEGERS[random.nextInt(INTEGERS.length)];
        String payload = random.nextBoolean() ? "" : ",\"payload\":{" + STRINGS[random.nextInt(STRINGS.length)]
                + ":[" + STRINGS[random.nextInt(STRINGS.length)] + ",1.50]}";
        String body = switch (type.getSimpleName()) {
            case "AddTimer" -> "{\"id\":" + string + ",\"delay\":" + integer + payload + "}";
            case "EditTimer" -> "{\"delay\":" + integer + ",\"priority\":" + integer + "}";
            case "Ack", "Extend" -> "{\"claim\":" + string + "}";
            case "AckAll" -> "{\"acks\":[{\"id\":" + string + ",\"claim\":\"c\"}]}";
            case "Nack" -> "{\"claim\":" + string + ",\"retryAfter\":" + integer + "}";
            case "PutClock" -> "{\"mode\":\"system\",\"retry\":{\"maxAttempts\":" + integer + "}}";
            case "Batch" -> "{\"ops\":[{\"op\":\"add\",\"id\":" + string + "}]}";
            default -> "{\"by\":" + integer + "}";
        };
        return random.nextInt(4) == 0 ? body.replaceFirst("\\{", "{" + "\"" + NAMES[random.nextInt(NAMES.length)]
                + "\":" + SCALARS[random.nextInt(SCALARS.length)] + ",") : body;
    }

    private static String body(Random random) {
        switch (random.nextInt(12)) {
            case 0:
                return SCALARS[random.nextInt(SCALARS.length)];
            case 1:
                return "[" + object(random, 2) + "]";
            case 2:
                return object(random, 3) + (random.nextBoolean() ? " {}" : " x");
            case 3:
                return random.nextBoolean() ? "" : "  ";
            default:
                return object(random, 3);
        }
    }

    private static String object(Random random, int depth) {
        StringBuilder object = new StringBuilder("{");
        int members = random.nextInt(5);
        for (int m = 0; m < members; m++) {
            if (m > 0) {
                object.append(',');
            }
            object.append('"').append(NAMES[random.nextInt(NAMES.length)]).append("\":").append(value(random, depth));
        }
        return object.append('}').toString();
    }

    private static String value(Random random, int depth) {
        int kind = depth <= 0 ? 0 : random.nextInt(8);
        if (kind == 6) {
            return object(random, depth - 1);
        }
        if (kind == 7) {
            StringBuilder array = new StringBuilder("[");
            int items = random.nextInt(3);
            for (int i = 0; i < items; i++) {
                array.append(i > 0 ? "," : "").append(random.nextBoolean() ? value(random, depth - 1)
                        : object(random, depth - 1));
            }
            return array.append(']').toString();
        }
        return SCALARS[random.nextInt(SCALARS.length)];
    }
}
