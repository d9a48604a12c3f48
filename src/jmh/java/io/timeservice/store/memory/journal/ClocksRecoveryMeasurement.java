package io.timeservice.store.memory.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import io.timeservice.model.Trace;
import io.timeservice.store.memory.ClockRegistry;
import io.timeservice.store.memory.MemoryClock;

/**
 * Recovery of many clocks (issue 15), one measurement per JVM, as a restarted service recovers: {@code build}
 * writes two data directories with {@link JournalStore}, {@code clocks} clocks of {@code timers} pending timers each
 * (ids {@code t-<n>}, delays spread over an hour, priorities 0-3, 16-byte payloads, no fsync), {@code snapshot}
 * ending in a snapshot of every clock and {@code journal-only} with journal segments only. {@code recover} opens one
 * of them on fresh {@link ClockRegistry} in a fresh JVM and prints the time {@link JournalStore#open} took (reading,
 * replaying, the invariant check of every clock, the writer attached) and the used heap it added, after a full GC.
 * Run after {@code ./mvnw -B -ntp -o -Pjmh test-compile} (classpath: {@code dependency:build-classpath}, see
 * docs/BENCHMARKS.md):
 * <pre>
 * CP=target/classes:target/test-classes:$(cat target/jmh-classpath.txt)
 * java -Xmx4g -cp $CP io.timeservice.store.memory.journal.ClocksRecoveryMeasurement build /tmp/rec 1000 1000
 * for i in 1 2 3 4 5; do for d in snapshot journal-only; do
 *   java -Xms4g -Xmx4g -XX:+UseSerialGC -cp $CP io.timeservice.store.memory.journal.ClocksRecoveryMeasurement recover /tmp/rec $d
 * done; done
 * </pre>
 * Recovery leaves an empty segment behind each time (the writer opens the next one); the runs replay the same
 * records.
 */
public final class ClocksRecoveryMeasurement {

    private ClocksRecoveryMeasurement() {
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[1]);
        if (args[0].equals("build")) {
            int clockCount = Integer.parseInt(args[2]);
            int timersPerClock = Integer.parseInt(args[3]);
            build(root.resolve("journal-only"), clockCount, timersPerClock, false);
            build(root.resolve("snapshot"), clockCount, timersPerClock, true);
            System.out.printf("clocks=%d timers/clock=%d: journal-only %,d bytes, snapshot dir %,d bytes%n",
                    clockCount, timersPerClock, bytes(root.resolve("journal-only")), bytes(root.resolve("snapshot")));
        } else if (args[0].equals("recover")) {
            recover(args[2], root.resolve(args[2]));
        } else {
            throw new IllegalArgumentException("build <dir> <clocks> <timers per clock> | recover <dir> <kind>: "
                    + args[0]);
        }
    }

    private static void build(Path dir, int clockCount, int timersPerClock, boolean endWithSnapshot)
            throws IOException {
        ClockRegistry clocks = fresh(clockCount, timersPerClock);
        try (JournalStore store = open(dir, clocks)) {
            for (int c = 0; c < clockCount; c++) {
                MemoryClock scheduler = clocks.create(String.format("ci-%04d", c), 0).clock().scheduler();
                for (int t = 0; t < timersPerClock; t++) {
                    scheduler.add("t-" + t, 1 + (t * 7919L + c) % 3_600_000, t % 4, "{\"run\":\"ci-" + c + "\"}",
                            Trace.NONE);
                }
            }
            if (endWithSnapshot) {
                clocks.snapshotNow();
                store.writer().awaitSnapshotIdle();
            }
        }
        if (endWithSnapshot != !JournalFiles.snapshotNumbers(dir).isEmpty()) {
            throw new IllegalStateException("snapshot expected=" + endWithSnapshot + " in " + dir);
        }
    }

    private static void recover(String label, Path dir) throws IOException {
        long before = usedAfterGc();
        ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, 100_000_000, Long.MAX_VALUE, 1_000_000);
        long start = System.nanoTime();
        JournalStore store = open(dir, clocks);
        long millis = (System.nanoTime() - start) / 1_000_000;
        long retained = usedAfterGc() - before;
        long pending = clocks.budget().timers();
        store.close();
        System.out.printf("RESULT %s: %d ms, heap retained %,d MB (%d clocks, %,d timers)%n", label, millis,
                retained >> 20, clocks.count(), pending);
    }

    private static ClockRegistry fresh(int clockCount, int timersPerClock) {
        return ClockRegistry.withVirtualClocks(4, clockCount * timersPerClock + 1_000, Long.MAX_VALUE, clockCount + 1);
    }

    private static JournalStore open(Path dir, ClockRegistry clocks) throws IOException {
        return JournalStore.open(dir, clocks, FsyncPolicy.NEVER, Duration.ofMillis(5), 1, Long.MAX_VALUE,
                JournalWriter.DEFAULT_SEGMENT_BYTES, JournalWriter.DEFAULT_MAX_UNFLUSHED_BYTES);
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long bytes(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return Files.size(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }

}
