package io.timeservice.store.memory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.timeservice.model.Ack;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.Delivery;
import io.timeservice.model.Due;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.Trace;

/**
 * Issue 44 item 5: one key holding 90% of a backlog of {@value #BACKLOG} ready deliveries under a concurrency of
 * {@value #CONCURRENCY} per key, against the same run without that hot key: how long the other keys' deliveries wait
 * from ready to claimed (p50, p99, in wall-clock time from the end of the advance that made them all ready), and the
 * most deliveries of the hot key ever in flight. The other keys are {@value #COLD_KEYS} keys of
 * {@value #PER_COLD_KEY} deliveries each; the hot key's timers are added first, so without flow control
 * ({@code off-hot}, shown for contrast) every one of them is ready before any cold one. A worker loop claims
 * {@value #BATCH} at a time and keeps {@value #OUTSTANDING} claims unacknowledged (it acknowledges the claim made
 * that many claims before), so deliveries stay in flight and the hot key's concurrency binds. Each case runs
 * {@code rounds} times, alternating, on a fresh clock (no journal, no metrics). Run after
 * {@code ./mvnw -B -ntp -Pjmh test-compile}:
 * <pre>
 * java -Xms3g -Xmx3g -cp target/classes:target/test-classes io.timeservice.store.memory.FlowHotKeyMeasurement 5
 * </pre>
 * or {@code bench/flow-control.sh}. Prints one RESULT line per case: the median, min and max over rounds of each
 * figure, and the ratio of the cold p99 with the hot key to that without it.
 */
public final class FlowHotKeyMeasurement {

    static final int BACKLOG = 1_000_000;
    static final int COLD_KEYS = 10_000;
    static final int PER_COLD_KEY = BACKLOG / 10 / COLD_KEYS;
    static final int CONCURRENCY = 5;
    static final int BATCH = 100;
    static final int OUTSTANDING = 4;
    private static final String HOT = "hot";

    private FlowHotKeyMeasurement() {
    }

    /** What one round measured. */
    record Round(double coldP50Millis, double coldP99Millis, int mostHotInFlight, long claims) {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        System.out.printf("backlog=%d coldKeys=%d perColdKey=%d concurrency=%d batch=%d outstanding=%d java=%s"
                + " cpus=%d%n", BACKLOG, COLD_KEYS, PER_COLD_KEY, CONCURRENCY, BATCH, OUTSTANDING,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
        String[] cases = {"on-hot", "on-cold-only", "off-hot"};
        List<List<Round>> results = new ArrayList<>();
        for (int c = 0; c < cases.length; c++) {
            results.add(new ArrayList<>());
        }
        run(true, true); // warm-up, not counted
        run(true, false);
        for (int r = 0; r < rounds; r++) {
            for (int c = 0; c < cases.length; c++) {
                Round round = run(!cases[c].startsWith("off"), cases[c].endsWith("hot"));
                results.get(c).add(round);
                System.out.printf("round %d %s: cold p50 %.1f ms, p99 %.1f ms, hot in flight at most %d, %d claims%n",
                        r, cases[c], round.coldP50Millis(), round.coldP99Millis(), round.mostHotInFlight(),
                        round.claims());
            }
        }
        for (int c = 0; c < cases.length; c++) {
            List<Round> of = results.get(c);
            System.out.printf("RESULT %s cold p50 ms %s, cold p99 ms %s, hot in flight at most %d%n", cases[c],
                    spread(of.stream().mapToDouble(Round::coldP50Millis).toArray()),
                    spread(of.stream().mapToDouble(Round::coldP99Millis).toArray()),
                    of.stream().mapToInt(Round::mostHotInFlight).max().orElse(0));
        }
        double with = median(results.get(0).stream().mapToDouble(Round::coldP99Millis).toArray());
        double without = median(results.get(1).stream().mapToDouble(Round::coldP99Millis).toArray());
        System.out.printf("RESULT cold p99 with the hot key / without: %.2f (medians %.1f / %.1f ms)%n",
                with / without, with, without);
    }

    /** One round on a fresh clock: fills it, makes everything ready at once, then claims until every cold one went. */
    private static Round run(boolean flow, boolean hot) {
        ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, 2 * BACKLOG, Long.MAX_VALUE, 10);
        ClockSettings queue = new ClockSettings(ClockSettings.Mode.VIRTUAL, ClockSettings.DeliveryMode.QUEUE,
                RetryPolicy.DEFAULT);
        MemoryClock clock = clocks.create("c", 0, flow
                ? queue.withFlow(new FlowLimits(CONCURRENCY, null, null, null, null)) : queue).clock().scheduler();
        if (hot) {
            for (int i = 0; i < BACKLOG - COLD_KEYS * PER_COLD_KEY; i++) {
                clock.add("h" + i, Due.after(1), 0, null, null, HOT, Trace.NONE);
            }
        }
        int cold = COLD_KEYS * PER_COLD_KEY;
        for (int i = 0; i < cold; i++) {
            clock.add("c" + i, Due.after(1), 0, null, null, "k" + i % COLD_KEYS, Trace.NONE);
        }
        clock.advance(1, Trace.NONE); // every delivery is ready from here on: the waits count from its end
        System.gc();
        long start = System.nanoTime();
        long[] waits = new long[cold];
        int coldClaimed = 0;
        int hotInFlight = 0;
        int mostHotInFlight = 0;
        long claims = 0;
        ArrayDeque<List<Delivery>> unacked = new ArrayDeque<>();
        while (coldClaimed < cold) {
            List<Delivery> claimed = clock.claim(BATCH, 3_600_000, 0);
            claims++;
            long now = System.nanoTime();
            for (Delivery d : claimed) {
                if (HOT.equals(d.key())) {
                    mostHotInFlight = Math.max(mostHotInFlight, ++hotInFlight);
                } else {
                    waits[coldClaimed++] = now - start;
                }
            }
            unacked.addLast(claimed);
            if (unacked.size() > OUTSTANDING || claimed.isEmpty()) {
                List<Delivery> oldest = unacked.pollFirst();
                List<Ack> acks = new ArrayList<>(oldest.size());
                for (Delivery d : oldest) {
                    acks.add(new Ack(d.id(), d.claim()));
                    if (HOT.equals(d.key())) {
                        hotInFlight--;
                    }
                }
                clock.ackAll(acks);
            }
        }
        Arrays.sort(waits);
        return new Round(waits[cold / 2] / 1e6, waits[(int) (cold * 0.99)] / 1e6, mostHotInFlight, claims);
    }

    private static String spread(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format("median %.1f (min %.1f, max %.1f)", median(sorted), sorted[0], sorted[sorted.length - 1]);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
