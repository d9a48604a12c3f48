package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.timeservice.model.Delivery.State;
import io.timeservice.model.Delivery;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import org.junit.jupiter.api.Test;

/** Dead letters on a real PostgreSQL ({@link PostgresDeadLetters}): listed by page, redriven, deleted. */
class PostgresDeadLettersTest extends QueueClockTest {

    private static PostgresDeadLetters deadLetters() {
        return store.deadLetters();
    }

    @Test
    void deadDeliveries_arePagedInSequenceOrder() {
        fired("c", "1", "a", "0", "b", "0");
        killAllReady();

        List<Delivery> first = deadLetters().dead(clock, 2, null);
        List<Delivery> second = deadLetters().dead(clock, 2, first.get(1).sequence());

        assertThat(first).extracting(Delivery::id).containsExactly("c", "a"); // added so
        assertThat(second).extracting(Delivery::id).containsExactly("b");
        assertThat(deadLetters().dead(clock, 2, second.get(0).sequence())).isEmpty();
        assertThat(first.get(0).attempt()).isEqualTo(3);
        assertThat(first.get(0).state()).isEqualTo(State.DEAD);
        assertThat(first.get(0).payload()).isEqualTo("{\"i\":0}");
        assertThat(first.get(0).deadReason()).isEqualTo("nacked on attempt 3 of 3");
        assertThatThrownBy(() -> deadLetters().dead(clock, 0, null)).isInstanceOf(ProblemException.class)
                .extracting("code").isEqualTo(ErrorCode.INVALID_LIMIT);
        assertThatThrownBy(() -> deadLetters().dead("no-such-clock", 10, null)).isInstanceOf(ProblemException.class)
                .extracting("code").isEqualTo(ErrorCode.CLOCK_NOT_FOUND);
    }

    @Test
    void redrive_makesADeadDeliveryReadyAtTheClocksNowWithAFreshSetOfAttempts_keepingItsBudget() {
        fired("a", "0");
        killAllReady();
        advance(7);
        long budgetBefore = pendingInBudget();

        List<Delivery> redriven = deadLetters().redrive(clock, "a", null);
        ClaimedDelivery again = deliveries().claim(clock, 1, 30_000).get(0);

        assertThat(redriven).extracting(Delivery::state).containsExactly(State.READY);
        assertThat(redriven.get(0).attempt()).isEqualTo(1);
        assertThat(redriven.get(0).deadReason()).isNull();
        assertThat(redriven.get(0).readyAt()).isEqualTo(8);
        assertThat(again.sequence()).isEqualTo(redriven.get(0).sequence());
        assertThat(again.attempt()).isEqualTo(1);
        assertThat(pendingInBudget()).isEqualTo(budgetBefore);
        assertThat(deadLetters().dead(clock, 10, null)).isEmpty();
        assertThatThrownBy(() -> deadLetters().redrive(clock, "a", null)).isInstanceOf(ProblemException.class)
                .extracting("code").isEqualTo(ErrorCode.DELIVERY_NOT_FOUND);
    }

    @Test
    void deleteDead_removesOnlyTheNamedSequence_andGivesItsBudgetBack() {
        fired("a", "0");
        fired("a", "0"); // the id again, while its first delivery is still out
        killAllReady();
        List<Delivery> dead = deadLetters().dead(clock, 10, null);
        assertThat(dead).extracting(Delivery::id).containsExactly("a", "a");
        long budgetBefore = pendingInBudget();

        List<Delivery> deleted = deadLetters().deleteDead(clock, "a", dead.get(0).sequence());

        assertThat(deleted).containsExactly(dead.get(0));
        assertThat(deadLetters().dead(clock, 10, null)).containsExactly(dead.get(1));
        assertThat(pendingInBudget()).isEqualTo(budgetBefore - 1);
        assertThatThrownBy(() -> deadLetters().deleteDead(clock, "a", dead.get(0).sequence()))
                .isInstanceOf(ProblemException.class).extracting("code")
                .isEqualTo(ErrorCode.DELIVERY_NOT_FOUND);
        assertThat(deadLetters().deleteDead(clock, "a", null)).containsExactly(dead.get(1));
        assertThat(pendingInBudget()).isEqualTo(budgetBefore - 2);
    }

    @Test
    void aRedriveTakesAtMostItsPerCallLimit_theLowestSequencesFirst_asOnTheMemoryStore() {
        fired("a", "0");
        killAllReady();
        long first = deadLetters().dead(clock, 1, null).get(0).sequence();
        // as many more dead deliveries of "a" as one call may take, numbered after the first (rows written directly:
        // a redrive keeps the budget, so these need none)
        database.execute("INSERT INTO deliveries (seq, clock, id, fire_time, priority, version, created_at, bytes,"
                + " state, attempt, done_at, dead_reason) SELECT " + first + " + n, '" + clock + "', 'a', 1, 0, 1, 0,"
                + " 1, 'dead', 3, 1, 'test' FROM generate_series(1, " + Limits.MAX_DEAD_LETTERS_PER_CALL + ") n");

        List<Delivery> redriven = deadLetters().redrive(clock, "a", null);

        assertThat(redriven).hasSize(Limits.MAX_DEAD_LETTERS_PER_CALL);
        assertThat(redriven.stream().mapToLong(Delivery::sequence).min().orElseThrow()).isEqualTo(first);
        assertThat(redriven.stream().mapToLong(Delivery::sequence).max().orElseThrow())
                .isEqualTo(first + Limits.MAX_DEAD_LETTERS_PER_CALL - 1);
        assertThat(deadLetters().dead(clock, 10, null)).extracting(Delivery::sequence)
                .containsExactly(first + Limits.MAX_DEAD_LETTERS_PER_CALL);
        assertThat(deadLetters().redrive(clock, "a", null)).hasSize(1);
    }
}
