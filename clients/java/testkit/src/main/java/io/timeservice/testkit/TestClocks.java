package io.timeservice.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.timeservice.client.ClockClient;
import io.timeservice.client.ClockOptions;
import io.timeservice.client.ClockSnapshot;
import io.timeservice.client.TimeServiceClient;
import io.timeservice.client.TimeServiceException;

/**
 * More clocks for one test, each deleted after it like the test's own: forks of a clock, clocks loaded from
 * snapshots (saved in the test, or kept as fixtures beside it) and clocks with any settings. A parameter that
 * {@link TimeServiceExtension} resolves, one per test:
 *
 * <pre>{@code
 * @Test void paymentRetries_eitherOutcome(ClockClient clock, TestClocks clocks) {
 *     ... set up an order on clock ...
 *     ClockClient declined = clocks.fork(clock);           // the same state, going on independently
 *     ClockSnapshot saved = clock.snapshot();
 *     ClockClient again = clocks.load(saved);              // the saved state, as often as needed
 * }
 * }</pre>
 *
 * <p>Not thread-safe: meant for the test's own thread.
 */
public final class TestClocks {

    private final TimeServiceClient client;
    private final Supplier<String> names;
    private final Class<?> testClass;
    private final List<ClockClient> made = new ArrayList<>();

    TestClocks(TimeServiceClient client, Supplier<String> names, Class<?> testClass) {
        this.client = client;
        this.names = names;
        this.testClass = testClass;
    }

    /** A new clock with these settings. */
    public ClockClient create(ClockOptions options) {
        return own(client.createClock(names.get(), options));
    }

    /** A copy of {@code source} taken atomically ({@link ClockClient#fork}): the two go on independently. */
    public ClockClient fork(ClockClient source) {
        return own(source.fork(names.get()));
    }

    /** A new clock loaded from {@code snapshot}: it fires what the saved clock would have. */
    public ClockClient load(ClockSnapshot snapshot) {
        return own(client.loadClock(names.get(), snapshot));
    }

    /**
     * A new clock loaded from a snapshot document on the class path, found as {@link Class#getResource} finds it from
     * the test class (relative to its package, or absolute with a leading {@code /}).
     */
    public ClockClient load(String resource) {
        try (InputStream in = testClass.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no snapshot resource " + resource + " beside "
                        + testClass.getName());
            }
            return load(ClockSnapshot.of(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    private ClockClient own(ClockClient clock) {
        made.add(clock);
        return clock;
    }

    /** Deletes every clock made here that still exists. */
    void deleteAll() {
        for (ClockClient clock : made) {
            try {
                clock.delete();
            } catch (TimeServiceException e) {
                if (!"clock_not_found".equals(e.code())) {
                    throw e;
                }
            }
        }
        made.clear();
    }
}
