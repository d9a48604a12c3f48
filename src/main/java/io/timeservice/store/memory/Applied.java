package io.timeservice.store.memory;

/**
 * What an operation under a clock's lock hands back: its result, its log position (0: nothing to wait for) and
 * the levels each of its heap sifts moved.
 */
record Applied<T>(T value, long position, int[] levels) {

    /** No sift moved: a read, or a change that touched no heap. */
    static final int[] NO_LEVELS = {};
}
