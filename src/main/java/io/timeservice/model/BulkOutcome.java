package io.timeservice.model;

/**
 * What a bulk action over a clock's dead letters did: {@code matched} dead letters matched its filter when their
 * chunk was taken, {@code changed} of them were redriven or deleted (fewer only when another call took some first).
 * Repeating the action matches and changes none of those again.
 */
public record BulkOutcome(long matched, long changed) {

    public static final BulkOutcome NONE = new BulkOutcome(0, 0);

    public BulkOutcome plus(long matched, long changed) {
        return new BulkOutcome(this.matched + matched, this.changed + changed);
    }
}
