package io.timeservice.client;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The entry point: a connection to one TimeService. Thread-safe; one instance is meant to be shared by a whole
 * application (it holds the HTTP connection pool).
 *
 * <pre>{@code
 * TimeServiceClient ts = TimeServiceClient.connect(URI.create("http://localhost:8080"));
 * ClockClient clock = ts.createClock("orders", ClockOptions.virtual(0));
 * clock.add("invoice-42", Duration.ofDays(14));
 * List<Timer> fired = clock.advance(Duration.ofDays(30));
 * }</pre>
 *
 * <p>Every refusal is a {@link TimeServiceException}; transport failures are {@link java.io.UncheckedIOException}s.
 * Calls that are safe to repeat (reads, creating a clock, acks, lease extensions) are retried on 503 and on
 * connection failures with a short backoff; no other call is retried.
 */
public final class TimeServiceClient {

    private static final int PAGE = 1000;

    private final Transport transport;

    private TimeServiceClient(Transport transport) {
        this.transport = transport;
    }

    /** A client of the service at {@code uri} (e.g. {@code http://localhost:8080}), without a token. */
    public static TimeServiceClient connect(URI uri) {
        return new TimeServiceClient(new Transport(Objects.requireNonNull(uri, "uri"), null));
    }

    /** A client that sends {@code Authorization: Bearer <token>} with every call. */
    public static TimeServiceClient connect(URI uri, String token) {
        return new TimeServiceClient(new Transport(Objects.requireNonNull(uri, "uri"),
                Objects.requireNonNull(token, "token")));
    }

    /** The service's base URI. */
    public URI uri() {
        return transport.base();
    }

    /**
     * Creates the clock, or finds it with exactly these settings (then nothing changes): a handle on it. A clock of
     * that name with other settings is refused with 409 {@code clock_conflict}.
     */
    public ClockClient createClock(String name, ClockOptions options) {
        transport.send(Transport.Call.repeatable("PUT", "/clocks/" + Transport.segment(name), options.json()));
        return clock(name);
    }

    /**
     * Creates the clock {@code name} from a snapshot ({@link ClockClient#snapshot()}, or a document written by hand),
     * all or nothing: it fires exactly what the saved clock would have. Refused with 400 {@code invalid_snapshot}
     * (the problem's detail names the bad member) and 409 {@code clock_conflict} when the name exists.
     */
    public ClockClient loadClock(String name, ClockSnapshot snapshot) {
        transport.send(Transport.Call.once("PUT", "/clocks/" + Transport.segment(name) + "/snapshot",
                snapshot.document()));
        return clock(name);
    }

    /** A handle on the clock of that name; no call is made, so an unknown name shows on the first use (404). */
    public ClockClient clock(String name) {
        return new ClockClient(transport, Objects.requireNonNull(name, "name"));
    }

    /** A handle on the clock {@code default}, which always exists. */
    public ClockClient defaultClock() {
        return clock("default");
    }

    /** Every clock, in name order, read page by page. */
    public List<ClockInfo> clocks() {
        List<ClockInfo> clocks = new ArrayList<>();
        String after = null;
        while (true) {
            List<ClockInfo> page = clocks(PAGE, after);
            clocks.addAll(page);
            if (page.size() < PAGE) {
                return clocks;
            }
            after = page.get(page.size() - 1).name();
        }
    }

    /** Up to {@code limit} (1 to 1,000) clocks in name order after {@code after} (null: from the first). */
    public List<ClockInfo> clocks(int limit, String after) {
        String query = "?limit=" + limit + (after == null ? "" : "&after=" + Transport.segment(after));
        JsonNode body = transport.send(Transport.Call.get("/clocks" + query)).body();
        List<ClockInfo> page = new ArrayList<>();
        body.get("clocks").forEach(node -> page.add(ClockInfo.of(node)));
        return page;
    }
}
