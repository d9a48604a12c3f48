package io.timeservice.web;

import java.util.List;

import io.timeservice.store.ClockStore;
import io.timeservice.store.PushHistory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /clocks/{clock}/push/recent}: the last push attempts of a clock as this instance saw them, newest first
 * ({@link PushHistory}): the operator console's push section. No header, URL or body of a push is shown.
 */
@RestController
class RecentPushesController {

    private final ClockStore clocks;
    private final PushHistory recent;

    RecentPushesController(ClockStore clocks, PushHistory recent) {
        this.clocks = clocks;
        this.recent = recent;
    }

    @GetMapping(path = "/clocks/{clock}/push/recent", produces = MediaType.APPLICATION_JSON_VALUE)
    RecentJson recent(@ClockVariable String clock) {
        long incarnation = clocks.get(clock).incarnation(); // clock_not_found for a clock that is not there
        return new RecentJson(PushHistory.PER_CLOCK, recent.of(clock, incarnation));
    }

    /** @param kept how many attempts a clock keeps at most */
    record RecentJson(int kept, List<PushHistory.Recent> attempts) {
    }
}
