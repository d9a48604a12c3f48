package io.timeservice.examples;

import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.timeservice.client.ClockClient;
import io.timeservice.client.ClockOptions;
import io.timeservice.client.TimeServiceClient;
import io.timeservice.client.TimerWorker;

/**
 * Example 2, the README's quick start as a program: schedule three invoices on a virtual clock that queues, run a
 * worker on its deliveries, move 30 days on in one call, and stop.
 *
 * <pre>
 * java -cp ... io.timeservice.examples.QuickStart http://localhost:8080
 * </pre>
 */
public final class QuickStart {

    /** An invoice, the payload of each timer. */
    public record Invoice(String number, int customer) {
    }

    private QuickStart() {
    }

    public static void main(String[] args) throws InterruptedException {
        run(URI.create(args.length > 0 ? args[0] : "http://localhost:8080"), System.out);
    }

    /** Runs the example against the service at {@code uri}; answers the invoice numbers the worker sent. */
    public static List<String> run(URI uri, PrintStream out) throws InterruptedException {
        TimeServiceClient ts = TimeServiceClient.connect(uri);
        ClockClient clock = ts.createClock("quickstart-" + UUID.randomUUID(), ClockOptions.virtual(0).queued());
        try {
            clock.add("invoice-42", Duration.ofDays(14), 0, "{\"number\":\"42\",\"customer\":7}");
            clock.add("invoice-43", Duration.ofDays(14), 0, "{\"number\":\"43\",\"customer\":8}");
            clock.add("invoice-44", Duration.ofDays(60), 0, "{\"number\":\"44\",\"customer\":9}");

            List<String> sent = new CopyOnWriteArrayList<>();
            CountDownLatch due = new CountDownLatch(2);
            try (TimerWorker worker = TimerWorker.on(clock).concurrency(8).handler(delivery -> {
                Invoice invoice = delivery.payload(Invoice.class);
                out.println("reminding customer " + invoice.customer() + " of invoice " + invoice.number()
                        + " (attempt " + delivery.attempt() + ")");
                sent.add(invoice.number());
                due.countDown();
            }).start()) {
                out.println("fired: " + clock.advance(Duration.ofDays(30)).size() + " timers");
                if (!due.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the worker did not get both deliveries: " + worker.stats());
                }
            }
            out.println("still pending: " + clock.timers(10).get(0).id());
            return sent;
        } finally {
            clock.delete();
        }
    }
}
