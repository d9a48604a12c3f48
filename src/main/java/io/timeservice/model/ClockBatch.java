package io.timeservice.model;

import java.util.List;

/**
 * One clock's part of a batch across clocks ({@code TimerStore#batchAcross}): the clock ({@code null}: the default
 * one) and its operations, decided and applied as a batch of that clock alone would be.
 */
public record ClockBatch(String clock, List<? extends BatchOp> ops) {

    /** The clock's name, {@link Limits#DEFAULT_CLOCK} for null. */
    public String clockName() {
        return clock == null ? Limits.DEFAULT_CLOCK : clock;
    }
}
