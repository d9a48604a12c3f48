package io.timeservice.store.memory.heap;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What hashing an id costs the {@link IdIndex} when the id is in cache, as an id parsed from a request is: the keyed
 * SipHash-1-3 the index uses, against {@code String.hashCode} as the index used it before (cached in the String
 * after the first call) and computed afresh (the same polynomial, as for a String never hashed before). 1,024
 * distinct ids of the given length, cycled, so the one-entry memo in {@link IdIndex#hash} never hits.
 *
 * <p>Run: {@code ./mvnw -B -ntp -o -Pjmh test-compile exec:exec@jmh -Djmh.args="IdHashBenchmark -f 1 -wi 3 -i 5"}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class IdHashBenchmark {

    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";

    @Param({"8", "16", "64"})
    public int length;

    private final String[] ids = new String[1024];
    private final IdIndex index = new IdIndex();
    private int next;

    @Setup
    public void makeIds() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < ids.length; i++) {
            StringBuilder id = new StringBuilder(length);
            for (int c = 0; c < length; c++) {
                id.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            ids[i] = id.toString();
            ids[i].hashCode();
        }
    }

    private String nextId() {
        return ids[next++ & (ids.length - 1)];
    }

    @Benchmark
    public int sipHash13() {
        return index.hash(nextId());
    }

    @Benchmark
    public int stringHashCodeCached() {
        return nextId().hashCode();
    }

    @Benchmark
    public int stringHashCodeFresh() {
        String id = nextId();
        int hash = 0;
        for (int i = 0; i < id.length(); i++) {
            hash = 31 * hash + id.charAt(i);
        }
        return hash;
    }
}
