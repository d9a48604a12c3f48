package io.timeservice.web;

import io.timeservice.model.Reservation;
import io.timeservice.store.TimerStore;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.http.MediaType;

/**
 * A clock's reserved ids (its dedupe window, {@code dedupeWindow}): released early by {@code DELETE}, so the id may
 * be added again before its window ends. The release answers with the reservation as it was.
 */
@RestController
class ReservationController {

    private final TimerStore timers;

    ReservationController(TimerStore timers) {
        this.timers = timers;
    }

    @DeleteMapping(path = {"/reservations/{id}", "/clocks/{clock}/reservations/{id}"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    ReservationJson release(@ClockVariable String clock, @PathVariable String id) {
        return ReservationJson.of(timers.releaseReservation(clock, id));
    }

    /** A reserved id as the API shows it: how its timer left, when its window began, its sequence. */
    record ReservationJson(String id, String state, long time, long sequence) {

        static ReservationJson of(Reservation reservation) {
            return new ReservationJson(reservation.id(), reservation.state().code(), reservation.time(),
                    reservation.sequence());
        }
    }
}
