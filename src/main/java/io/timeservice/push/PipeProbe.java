package io.timeservice.push;

import java.io.FileWriter;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/** TEMPORARY (issue 32, push-pipe): where a push slot's cycle goes during a drain. Appends to /tmp/pp-probe.log. */
final class PipeProbe {

    static final Series HOP = new Series("answered -> settle starts (pool hop)");
    static final Series ACK = new Series("settle batch: start -> ackAll done");
    static final Series CLAIM = new Series("round: claim call");
    static final Series SUBMIT = new Series("round: sends submitted (post() calls)");
    static final Series SLOT = new Series("slot wait: answered -> next request submitted");
    static final Series EXCHANGE = new Series("request: submitted -> answered");
    static final Series BATCH = new Series("settle batch size (count)");
    static final Series CLAIMED = new Series("claimed per claim (count)");
    private static final Series[] ALL = {HOP, ACK, CLAIM, SUBMIT, SLOT, EXCHANGE, BATCH, CLAIMED};
    static final java.util.Queue<Long> FREED = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private static int level;
    private static long last;
    private static long busySince;
    private static long area;
    private static long atLeast57;
    private static long fullArea;

    private PipeProbe() {
    }

    static synchronized void inFlight(int delta) {
        long now = System.nanoTime();
        if (level == 0 && delta > 0) {
            busySince = now;
            area = 0;
            atLeast57 = 0;
            fullArea = 0;
        } else if (level > 0) {
            long dt = now - last;
            area += dt * level;
            if (level >= 57) {
                atLeast57 += dt;
            }
            if (level >= 64) {
                fullArea += dt;
            }
        }
        level += delta;
        last = now;
        if (level == 0 && EXCHANGE.n.get() > 5_000) {
            report(now - busySince);
        }
    }

    private static void report(long busy) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("PROBE busy_ms=%.1f avg_in_flight=%.1f share_at_57plus=%.2f share_at_64=%.2f%n",
                busy / 1e6, (double) area / busy, (double) atLeast57 / busy, (double) fullArea / busy));
        for (Series s : ALL) {
            out.append("  ").append(s.summary()).append('\n');
            s.n.set(0);
        }
        FREED.clear();
        try (FileWriter w = new FileWriter("/tmp/pp-probe.log", true)) {
            w.write(out.toString());
        } catch (IOException ignored) {
            // temporary probe
        }
    }

    static final class Series {
        final String name;
        final long[] values = new long[1 << 20];
        final AtomicInteger n = new AtomicInteger();

        Series(String name) {
            this.name = name;
        }

        void add(long value) {
            int i = n.getAndIncrement();
            if (i < values.length) {
                values[i] = value;
            }
        }

        void nanos(long since) {
            add(System.nanoTime() - since);
        }

        String summary() {
            int count = Math.min(n.get(), values.length);
            if (count == 0) {
                return name + ": none";
            }
            long[] v = Arrays.copyOf(values, count);
            Arrays.sort(v);
            double mean = Arrays.stream(v).average().orElse(0);
            boolean isCount = name.endsWith("(count)");
            double scale = isCount ? 1 : 1e3;
            return String.format("%-48s n=%d mean=%.1f p50=%.1f p90=%.1f p99=%.1f max=%.1f%s", name, count,
                    mean / scale, v[count / 2] / scale, v[(int) (count * 0.9)] / scale, v[(int) (count * 0.99)] / scale,
                    v[count - 1] / scale, isCount ? "" : " us");
        }
    }
}
