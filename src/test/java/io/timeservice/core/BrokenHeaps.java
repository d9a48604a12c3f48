package io.timeservice.core;

import java.lang.reflect.Field;

/** Breaks a scheduler's heap on purpose, for tests that show what a failed invariant looks like. */
public final class BrokenHeaps {

    private BrokenHeaps() {
    }

    /**
     * Makes the root's fireTime later than its children's without moving anything, as a sift that forgot to run
     * would. Needs at least two pending timers.
     */
    public static void delayTheRootInPlace(TimerScheduler scheduler, long by) {
        scheduler.corruptForTest(heap -> {
            try {
                Field field = IndexedTimerHeap.class.getDeclaredField("fireTimes");
                field.setAccessible(true);
                long[] fireTimes = (long[]) field.get(heap);
                fireTimes[0] += by;
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("IndexedTimerHeap no longer has its fireTimes array", e);
            }
        });
    }
}
