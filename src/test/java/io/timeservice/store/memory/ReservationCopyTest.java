package io.timeservice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.timeservice.model.ClockSettings;
import io.timeservice.model.Reservation;
import io.timeservice.model.Trace;

/**
 * A clock's reservations as a snapshot or fork copies them: fields copied under the lock, sorted by window start,
 * sequence and id only when read, and the copy unchanged by what the clock does after it.
 */
class ReservationCopyTest {

    @Test
    void list_sortsByWindowStartThenSequenceThenId_whateverTheOrderGiven() {
        Random random = new Random(43);
        List<Reservation> held = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            held.add(new Reservation("id-" + random.nextInt(500), Reservation.State.values()[random.nextInt(4)],
                    random.nextInt(50), random.nextInt(20)));
        }
        List<Reservation> expected = new ArrayList<>(held);
        expected.sort(Comparator.comparingLong(Reservation::time).thenComparingLong(Reservation::sequence)
                .thenComparing(Reservation::id));

        ReservationCopy copy = ReservationCopy.of(held);

        assertThat(copy.size()).isEqualTo(held.size());
        assertThat(copy.list()).containsExactlyElementsOf(expected);
        assertThat(copy.list()).isSameAs(copy.list()); // sorted once
    }

    @Test
    void aClocksCopy_holdsItsUnexpiredReservations_andIsNotChangedByWhatTheClockDoesAfterIt() {
        ClockRegistry clocks = ClockRegistry.withVirtualClocks(4, 1_000, Long.MAX_VALUE, 10);
        MemoryClock clock = clocks.create("c", 0, ClockSettings.VIRTUAL.withDedupeWindow(100)).clock().scheduler();
        clock.add("b", 10, 0, null, Trace.NONE);
        clock.add("a", 10, 0, null, Trace.NONE);
        clock.add("late", 60, 0, null, Trace.NONE);
        clock.advance(60, Trace.NONE);             // b, a reserved from 10, late from 60

        ClockImage image = clock.copied((state, weight) -> { });
        clock.add("then", 10, 0, null, Trace.NONE);  // due at 70
        clock.advance(55, Trace.NONE);             // to 115: a and b expired at 110, then is reserved

        assertThat(image.reservations()).extracting(Reservation::id).containsExactly("b", "a", "late");
        assertThat(clock.reservations()).extracting(Reservation::id).containsExactly("late", "then");
    }
}
