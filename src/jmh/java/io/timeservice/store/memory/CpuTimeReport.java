package io.timeservice.store.memory;

import java.util.Arrays;

/** The report of the CPU-time measurements ({@link DedupeAddCpuTime}, {@link FlowClaimCpuTime}): one line a case. */
final class CpuTimeReport {

    private CpuTimeReport() {
    }

    /**
     * Prints {@code name}'s median, minimum and maximum CPU and wall ns per operation over its rounds ({@code cpu} and
     * {@code wall} in ns, one per round, of {@code operations} each, called {@code unit}, {@code units} for more);
     * answers the median CPU ns per operation.
     */
    static double report(String name, long[] cpu, long[] wall, long operations, String unit, String units) {
        long[] sortedCpu = cpu.clone();
        long[] sortedWall = wall.clone();
        Arrays.sort(sortedCpu);
        Arrays.sort(sortedWall);
        double median = sortedCpu[sortedCpu.length / 2] / (double) operations;
        System.out.printf("%s: CPU ns/%s median %.0f (min %.0f, max %.0f); wall ns/%s median %.0f (min %.0f,"
                        + " max %.0f); %d rounds of %d %s%n", name, unit, median, sortedCpu[0] / (double) operations,
                sortedCpu[sortedCpu.length - 1] / (double) operations, unit,
                sortedWall[sortedWall.length / 2] / (double) operations, sortedWall[0] / (double) operations,
                sortedWall[sortedWall.length - 1] / (double) operations, cpu.length, operations, units);
        return median;
    }
}
