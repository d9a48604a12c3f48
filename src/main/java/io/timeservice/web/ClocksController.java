package io.timeservice.web;

import java.net.URI;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.timeservice.core.Clocks;
import io.timeservice.core.ErrorCode;
import io.timeservice.core.QueueStatus;
import io.timeservice.core.SchedulerException;
import io.timeservice.core.TimerScheduler;
import io.timeservice.web.JsonRequest.PutClock;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The clocks resource: create (idempotent PUT), read, list by name and delete virtual clocks. Everything under
 * {@code /clocks/{clock}/} is served by the timer, clock and queue controllers, parameterized by clock.
 */
@RestController
class ClocksController {

    static final int DEFAULT_LIST_LIMIT = 100;
    static final int MAX_LIST_LIMIT = 1000;

    private final Clocks clocks;

    ClocksController(Clocks clocks) {
        this.clocks = clocks;
    }

    /** The scheduler of the clock a path names, or of {@code default} for the paths without one. */
    static TimerScheduler scheduler(Clocks clocks, String clock) {
        return clock == null ? clocks.defaultScheduler() : clocks.scheduler(clock);
    }

    @PutMapping(path = "/clocks/{clock}", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ClockJson> put(@PathVariable String clock, @RequestBody PutClock body) {
        Clocks.Created created = clocks.create(clock, body.now() == null ? 0 : body.now());
        ClockJson json = describe(clocks, created.clock());
        return created.created() ? ResponseEntity.created(URI.create("/clocks/" + clock)).body(json)
                : ResponseEntity.ok(json);
    }

    @GetMapping(path = "/clocks/{clock}", produces = MediaType.APPLICATION_JSON_VALUE)
    ClockJson get(@PathVariable String clock) {
        return describe(clocks, clocks.get(clock));
    }

    @DeleteMapping(path = "/clocks/{clock}")
    ResponseEntity<Void> delete(@PathVariable String clock) {
        clocks.delete(clock);
        return ResponseEntity.noContent().build();
    }

    /** Clocks by name, {@code limit} at a time after {@code after}: pass the last name of a page to get the next. */
    @GetMapping(path = "/clocks", produces = MediaType.APPLICATION_JSON_VALUE)
    ClockListJson list(@RequestParam(required = false) String limit, @RequestParam(required = false) String after) {
        List<Clocks.Clock> page = clocks.list(LimitParameter.parse(limit, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT), after);
        return new ClockListJson(page.stream().<ClockJson>mapMulti((clock, out) -> {
            try {
                out.accept(describe(clocks, clock));
            } catch (SchedulerException refused) {
                if (refused.code() != ErrorCode.CLOCK_NOT_FOUND) {
                    throw refused;
                }
                // a clock deleted between the listing and its status is left out
            }
        }).toList());
    }

    private static ClockJson describe(Clocks clocks, Clocks.Clock clock) {
        QueueStatus status = clock.scheduler().status();
        Long oldestAge = status.oldestCreatedAt() == null ? null : status.now() - status.oldestCreatedAt();
        return new ClockJson(clock.name(), status.now(), status.size(), status.nextFireTime(), oldestAge,
                clock.createdAtWallMillis(), clocks.deletesAt(clock));
    }

    /**
     * @param oldestAge virtual milliseconds the longest-waiting pending timer has waited (now - its createdAt), or
     *                  null when none is pending
     * @param createdAt wall-clock epoch milliseconds of the creation; 0 for {@code default}, which always existed
     * @param deletesAt with {@code timeservice.clocks.idle-ttl} set, when the clock is deleted unless a call addresses
     *                  it first (wall-clock epoch milliseconds); absent otherwise, and always for {@code default}
     */
    record ClockJson(String name, long now, int size, Long nextFireTime, Long oldestAge, long createdAt,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Long deletesAt) {
    }

    record ClockListJson(List<ClockJson> clocks) {
    }
}
