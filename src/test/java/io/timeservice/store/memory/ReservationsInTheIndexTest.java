package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.OnConflict;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Reservation;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.time.VirtualClock;
import org.junit.jupiter.api.Test;

/**
 * A clock's reserved ids live in its heap's id index beside the pending ids (one probe per add): through firing a
 * burst that drains the heap, adds refused or kept by a reservation, cancels, releases, expiry and a reset, the four
 * invariants hold, the heap's size counts pending timers only, and the reservations answer as before.
 */
class ReservationsInTheIndexTest {

    private static final long WINDOW = 1_000;

    private final MemoryClock clock = ClockRegistry.withVirtualClocks(4, 100_000, Long.MAX_VALUE, 10)
            .create("c", 0, ClockSettings.VIRTUAL.withDedupeWindow(WINDOW)).clock().scheduler();

    @Test
    void aBurstFiredAndDrained_staysReserved_andTheInvariantsCountOnlyPendingTimers() {
        for (int i = 0; i < 5_000; i++) { // past the size at which a drained heap gives its arrays back
            clock.add("t" + i, 10 + i % 100, 0, null, Trace.NONE);
        }
        clock.add("later", 500, 0, null, Trace.NONE);
        clock.advance(200L, Trace.NONE);

        assertThat(clock.status().size()).isEqualTo(1);
        assertThat(clock.reservations()).hasSize(5_000);
        assertOk(clock.checkInvariants());
        ProblemException refused = catchThrowableOfType(ProblemException.class,
                () -> clock.add("t42", 10, 0, null, Trace.NONE));
        assertThat(refused.code()).isEqualTo(ErrorCode.DUPLICATE_ID);
        assertThat(refused.getMessage()).contains("reserved");
        ProblemException pending = catchThrowableOfType(ProblemException.class,
                () -> clock.add("later", 10, 0, null, Trace.NONE));
        assertThat(pending.getMessage()).isEqualTo("a pending timer already has id later");
        assertThat(clock.add("t42", Due.after(10), 0, null, OnConflict.KEEP).reservation())
                .extracting(Reservation::id, Reservation::state).containsExactly("t42", Reservation.State.FIRED);

        clock.cancel("later", Precondition.NONE, Trace.NONE);
        clock.releaseReservation("t7");
        clock.add("t7", 10, 0, null, Trace.NONE);
        assertThat(clock.status().size()).isEqualTo(1);
        assertThat(clock.reservations()).hasSize(5_000); // t7 left, later came
        assertOk(clock.checkInvariants());
    }

    @Test
    void expiredReservations_leaveTheIndex_andTheirIdsAreFree() {
        for (int i = 0; i < 100; i++) {
            clock.add("t" + i, 10, 0, null, Trace.NONE);
        }
        clock.advance(10L, Trace.NONE);
        clock.advance(WINDOW, Trace.NONE);
        clock.add("t3", 10, 0, null, Trace.NONE); // expires the ended windows first

        assertThat(clock.reservations()).isEmpty();
        assertThat(clock.status().size()).isEqualTo(1);
        assertOk(clock.checkInvariants());
    }

    @Test
    void aReset_dropsTimersAndReservationsAlike() {
        for (int i = 0; i < 50; i++) {
            clock.add("f" + i, 10, 0, null, Trace.NONE);
            clock.add("p" + i, 5_000, 0, null, Trace.NONE);
        }
        clock.advance(10L, Trace.NONE);
        clock.reset(new VirtualClock(0));

        assertThat(clock.status().size()).isZero();
        assertThat(clock.reservations()).isEmpty();
        clock.add("f1", 10, 0, null, Trace.NONE);
        clock.add("p1", 10, 0, null, Trace.NONE);
        assertOk(clock.checkInvariants());
    }

    private static void assertOk(InvariantReport report) {
        assertThat(report.ok()).as(report.ok() ? "" : report.firstFailure().detail()).isTrue();
    }
}
