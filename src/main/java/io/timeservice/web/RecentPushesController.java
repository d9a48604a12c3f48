package io.timeservice.web;

import java.util.List;

import io.timeservice.push.RecentPushes;
import io.timeservice.store.ClockStore;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /clocks/{clock}/push/recent}: the last push attempts of a clock as this instance saw them, newest first
 * ({@link RecentPushes}): the operator console's push section. No header, URL or body of a push is shown.
 */
@RestController
class RecentPushesController {

    private final ClockStore clocks;
    private final RecentPushes recent;

    RecentPushesController(ClockStore clocks, RecentPushes recent) {
        this.clocks = clocks;
        this.recent = recent;
    }

    @GetMapping(path = "/clocks/{clock}/push/recent", produces = MediaType.APPLICATION_JSON_VALUE)
    RecentJson recent(@ClockVariable String clock) {
        clocks.get(clock); // clock_not_found for a clock that is not there
        return new RecentJson(RecentPushes.PER_CLOCK, recent.of(clock));
    }

    /** @param kept how many attempts a clock keeps at most */
    record RecentJson(int kept, List<RecentPushes.Recent> attempts) {
    }
}
