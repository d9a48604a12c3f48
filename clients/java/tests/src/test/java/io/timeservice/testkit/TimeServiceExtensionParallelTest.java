package io.timeservice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import io.timeservice.client.ClockClient;
import io.timeservice.client.Timer;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Tests running at once against one service do not see each other's time: four repetitions meet at a barrier (so
 * they do overlap), then each advances its own clock and sees only its own timers fire.
 */
@ExtendWith(TimeServiceExtension.class)
@Execution(ExecutionMode.CONCURRENT)
class TimeServiceExtensionParallelTest {

    private static final CyclicBarrier TOGETHER = new CyclicBarrier(2);

    @RepeatedTest(4)
    void parallelTests_eachAdvanceOnlyTheirOwnClock(ClockClient clock) throws Exception {
        clock.add("mine", Duration.ofMinutes(5));
        TOGETHER.await(60, TimeUnit.SECONDS);

        List<Timer> fired = clock.advance(Duration.ofMinutes(5));

        assertEquals(List.of("mine"), fired.stream().map(Timer::id).toList());
        assertEquals(Duration.ofMinutes(5).toMillis(), clock.now().toEpochMilli());
    }
}
