package io.timeservice.model;

import java.util.List;

/**
 * The outcome of checking the four invariants that every completed public operation must leave true.
 *
 * @param checks    exactly {@link #ROOT_IS_EARLIEST}, {@link #INDEX_MATCHES_HEAP}, {@link #HEAP_ORDER} and
 *                  {@link #NO_OVERDUE}, in that order
 * @param checkedAt wall-clock epoch milliseconds at which the checked state was copied (0 for a report made
 *                  directly on a heap, outside a scheduler)
 * @param current   whether the report describes the queue as it was when the report was handed out; false for an
 *                  earlier report served because a large queue's walks are rate-bounded (see
 *                  the store's rate limit of invariant checks)
 */
public record InvariantReport(List<Check> checks, long checkedAt, boolean current) {

    public static final String ROOT_IS_EARLIEST = "root-is-earliest";
    public static final String INDEX_MATCHES_HEAP = "index-matches-heap";
    public static final String HEAP_ORDER = "heap-order";
    public static final String NO_OVERDUE = "no-overdue";

    public InvariantReport {
        checks = List.copyOf(checks);
    }

    /** A report fresh from a walk on a heap. */
    public InvariantReport(List<Check> checks) {
        this(checks, 0, true);
    }

    public InvariantReport checkedAt(long wallMillis) {
        return new InvariantReport(checks, wallMillis, current);
    }

    /** This report, marked as describing an earlier state than the current one. */
    public InvariantReport notCurrent() {
        return new InvariantReport(checks, checkedAt, false);
    }

    public boolean ok() {
        return checks.stream().allMatch(Check::ok);
    }

    /** The first broken check, or {@code null} when all hold. */
    public Check firstFailure() {
        return checks.stream().filter(check -> !check.ok()).findFirst().orElse(null);
    }

    /**
     * @param detail what broke, naming slots and ids; {@code null} when the check holds
     */
    public record Check(String name, boolean ok, String detail) {

        public static Check passed(String name) {
            return new Check(name, true, null);
        }

        public static Check failed(String name, String detail) {
            return new Check(name, false, detail);
        }
    }
}
