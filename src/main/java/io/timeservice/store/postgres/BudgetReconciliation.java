package io.timeservice.store.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;

import io.timeservice.model.InvariantReport;

/**
 * The PostgreSQL store's invariant: the pending budget ({@code pending_budget}, summed over its stripes) counts
 * exactly the rows it stands for, every pending timer and every unacknowledged delivery, in number and in bytes, and
 * the unacknowledged deliveries alone (the delivery limit's count). A change that gave back a share twice (or never)
 * shows here for good, since nothing recounts the timers and bytes (the deliveries are recounted at each start).
 *
 * <p>One statement, so one snapshot: the budget and the rows are read as of the same commit. It reads every pending
 * timer and every unacknowledged delivery (O(pending), acknowledged rows skipped by their state), so it is for an
 * operator's check or a test, not for a hot path. The statement is {@link StoreSql#BUDGET_AND_ROWS}.
 */
final class BudgetReconciliation {

    /** The check's name in the invariant report. */
    static final String BUDGET_MATCHES_ROWS = "budget-matches-rows";

    private BudgetReconciliation() {
    }

    /** The check, passed when the budget's totals equal the rows' count and bytes; the figures when not. */
    static InvariantReport.Check check(Jdbc jdbc) {
        return jdbc.autocommit(connection -> Jdbc.queryOne(connection, StoreSql.BUDGET_AND_ROWS, select -> { },
                BudgetReconciliation::checkOf));
    }

    /** The check a row of {@link StoreSql#BUDGET_AND_ROWS} makes. */
    private static InvariantReport.Check checkOf(ResultSet row) throws SQLException {
        long budgetTimers = row.getLong(1);
        long budgetBytes = row.getLong(2);
        long rows = row.getLong(3);
        long rowBytes = row.getLong(4);
        long budgetDeliveries = row.getLong(5);
        long deliveries = row.getLong(6);
        if (budgetTimers == rows && budgetBytes == rowBytes && budgetDeliveries == deliveries) {
            return InvariantReport.Check.passed(BUDGET_MATCHES_ROWS);
        }
        return InvariantReport.Check.failed(BUDGET_MATCHES_ROWS, "the pending budget counts " + budgetTimers
                + " timers and deliveries of " + budgetBytes + " bytes, " + budgetDeliveries + " of them"
                + " deliveries; the tables hold " + rows + " of " + rowBytes + " bytes, " + deliveries
                + " of them deliveries (pending timers and unacknowledged deliveries)");
    }
}
