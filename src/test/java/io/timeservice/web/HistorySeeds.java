package io.timeservice.web;

import java.util.stream.LongStream;

/**
 * The seeds the random-history property tests run: {@code -Dtimeservice.history.seeds=N} of them (a few by default,
 * to keep the normal suite short) from {@code -Dtimeservice.history.firstSeed=S} (1 by default), so a failure's
 * printed seed replays with {@code -Dtimeservice.history.firstSeed=<seed> -Dtimeservice.history.seeds=1}. More seeds:
 * {@code bench/history-seeds.sh} (docs/TESTING.md).
 */
final class HistorySeeds {

    private HistorySeeds() {
    }

    static LongStream seeds(int defaultCount) {
        long first = Long.getLong("timeservice.history.firstSeed", 1L);
        int count = Integer.getInteger("timeservice.history.seeds", defaultCount);
        return LongStream.range(first, first + count);
    }

    /**
     * Calls per history: {@code -Dtimeservice.history.steps}, 150 by default (three seeds of 150 find issue 41 item
     * 1's history when its fix is taken out; of 60 they did not).
     */
    static int steps() {
        return Integer.getInteger("timeservice.history.steps", 150);
    }
}
