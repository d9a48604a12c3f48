package io.timeservice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;

/**
 * Two {@link IdempotencyStore}s on one database (two instances) racing one key from eight threads: exactly one
 * begins the run, the others are refused {@code idempotency_key_in_use}, and once the winner kept its answer the
 * other instance replays it.
 */
final class IdempotencyRace {

    private IdempotencyRace() {
    }

    static void exactlyOneRuns(IdempotencyStore first, IdempotencyStore second) throws Exception {
        List<IdempotencyStore> instances = List.of(first, second);
        int racers = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(racers);
        try {
            List<Future<Object>> outcomes = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                IdempotencyStore instance = instances.get(i % 2);
                outcomes.add(threads.submit(() -> {
                    start.await();
                    try {
                        return instance.begin(IdempotencyStoreContract.KEY, IdempotencyStoreContract.ADD);
                    } catch (ProblemException refused) {
                        return refused.code();
                    }
                }));
            }
            start.countDown();
            List<Object> results = new ArrayList<>();
            for (Future<Object> outcome : outcomes) {
                results.add(outcome.get(30, TimeUnit.SECONDS));
            }
            assertThat(results).filteredOn(IdempotencyStore.Begun.Run.class::isInstance).hasSize(1);
            assertThat(results).filteredOn(result -> !(result instanceof IdempotencyStore.Begun.Run))
                    .containsOnly(ErrorCode.IDEMPOTENCY_KEY_IN_USE);
            IdempotencyStore.Begun.Run winner = (IdempotencyStore.Begun.Run) results.stream()
                    .filter(IdempotencyStore.Begun.Run.class::isInstance).findFirst().orElseThrow();
            first.keep(IdempotencyStoreContract.KEY, winner, IdempotencyStoreContract.CREATED);
            assertThat(second.begin(IdempotencyStoreContract.KEY, IdempotencyStoreContract.ADD))
                    .isEqualTo(new IdempotencyStore.Begun.Replay(IdempotencyStoreContract.CREATED));
        } finally {
            threads.shutdownNow();
        }
    }
}
