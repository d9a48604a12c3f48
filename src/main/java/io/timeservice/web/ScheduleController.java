package io.timeservice.web;

import java.net.URI;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.model.Timer;
import io.timeservice.store.ScheduleStore;
import io.timeservice.web.JsonRequest.PutSchedule;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The schedule resource: create or replace, read, list, delete, the next times, pause, resume and trigger. Entity
 * tags are {@code "<version>"}; {@code If-Match} names one (or {@code *}: any current version).
 */
@RestController
class ScheduleController {

    private static final Pattern VERSION_TAG = Pattern.compile("\"(0|[1-9]\\d{0,18})\"");

    private final ScheduleStore schedules;
    private final StrictJsonConverter json;
    private final AddingTraceContext traceContexts;

    ScheduleController(ScheduleStore schedules, StrictJsonConverter json, AddingTraceContext traceContexts) {
        this.schedules = schedules;
        this.json = json;
        this.traceContexts = traceContexts;
    }

    @PutMapping(path = {"/schedules/{id}", "/clocks/{clock}/schedules/{id}"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ScheduleJson> put(@ClockVariable String clock, @PathVariable String id,
                                     @RequestBody PutSchedule body,
                                     @RequestHeader(name = "If-Match", required = false) String ifMatch,
                                     HttpServletRequest request) {
        ScheduleSpec spec = new ScheduleSpec(body.cron(), body.every(), body.zone(), body.start(), body.end(),
                body.limit(), body.priority() == null ? 0 : body.priority(), json.payloadText(body.payload()),
                body.catchUp() == null ? ScheduleSpec.CatchUp.ALL : ScheduleSpec.CatchUp.valueOf(body.catchUp().name()),
                Boolean.TRUE.equals(body.paused()), traceContexts.ofSchedule(request, clock, id), body.key());
        Schedule.Put put = schedules.put(clock, id, spec, version(clock, id, ifMatch));
        ResponseEntity.BodyBuilder answer = put.created()
                ? ResponseEntity.created(URI.create((clock == null ? "" : "/clocks/" + clock) + "/schedules/" + id))
                : ResponseEntity.ok();
        return answer.eTag(tag(put.schedule())).body(ScheduleJson.of(put.schedule()));
    }

    @GetMapping(path = {"/schedules/{id}", "/clocks/{clock}/schedules/{id}"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ScheduleJson> get(@ClockVariable String clock, @PathVariable String id) {
        Schedule schedule = schedules.get(clock, id);
        return ResponseEntity.ok().eTag(tag(schedule)).body(ScheduleJson.of(schedule));
    }

    @GetMapping(path = {"/schedules", "/clocks/{clock}/schedules"}, produces = MediaType.APPLICATION_JSON_VALUE)
    ListJson list(@ClockVariable String clock) {
        return new ListJson(ScheduleJson.of(schedules.list(clock)));
    }

    @DeleteMapping(path = {"/schedules/{id}", "/clocks/{clock}/schedules/{id}"})
    ResponseEntity<Void> delete(@ClockVariable String clock, @PathVariable String id,
                                @RequestHeader(name = "If-Match", required = false) String ifMatch) {
        schedules.delete(clock, id, version(clock, id, ifMatch));
        return ResponseEntity.noContent().build();
    }

    @GetMapping(path = {"/schedules/{id}/next", "/clocks/{clock}/schedules/{id}/next"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    TimesJson next(@ClockVariable String clock, @PathVariable String id,
                   @RequestParam(required = false) String count) {
        int n = LimitParameter.parse("count", count, Limits.DEFAULT_NEXT_COUNT, Limits.MAX_NEXT_COUNT);
        return new TimesJson(schedules.next(clock, id, n));
    }

    @PostMapping(path = {"/schedules/{id}/pause", "/clocks/{clock}/schedules/{id}/pause"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ScheduleJson> pause(@ClockVariable String clock, @PathVariable String id,
                                       @RequestHeader(name = "If-Match", required = false) String ifMatch) {
        Schedule schedule = schedules.pause(clock, id, version(clock, id, ifMatch));
        return ResponseEntity.ok().eTag(tag(schedule)).body(ScheduleJson.of(schedule));
    }

    @PostMapping(path = {"/schedules/{id}/resume", "/clocks/{clock}/schedules/{id}/resume"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ScheduleJson> resume(@ClockVariable String clock, @PathVariable String id,
                                        @RequestHeader(name = "If-Match", required = false) String ifMatch) {
        Schedule schedule = schedules.resume(clock, id, version(clock, id, ifMatch));
        return ResponseEntity.ok().eTag(tag(schedule)).body(ScheduleJson.of(schedule));
    }

    /** 201 with the extra occurrence's timer (due at the clock's now). */
    @PostMapping(path = {"/schedules/{id}/trigger", "/clocks/{clock}/schedules/{id}/trigger"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<TimerJson> trigger(@ClockVariable String clock, @PathVariable String id) {
        Timer occurrence = schedules.trigger(clock, id);
        return ResponseEntity.created(URI.create((clock == null ? "" : "/clocks/" + clock) + "/timers/"
                + occurrence.id())).eTag(EntityTags.of(occurrence)).body(TimerJson.of(occurrence));
    }

    private static String tag(Schedule schedule) {
        return "\"" + schedule.version() + "\"";
    }

    /**
     * The version an If-Match header names: null when absent, the current one for {@code *} (412 when there is no
     * schedule), else the one strong tag it names; a header naming none (weak, malformed, a list) matches no version.
     */
    private Long version(String clock, String id, String ifMatch) {
        if (ifMatch == null) {
            return null;
        }
        if (ifMatch.trim().equals("*")) {
            try {
                return schedules.get(clock, id).version();
            } catch (ProblemException refused) {
                if (refused.code() == ErrorCode.SCHEDULE_NOT_FOUND) {
                    throw new ProblemException(ErrorCode.PRECONDITION_FAILED, "If-Match: * needs a current"
                            + " schedule, and there is none with id " + LoneSurrogates.abbreviate(id,
                            Limits.MAX_SCHEDULE_ID_LENGTH));
                }
                throw refused;
            }
        }
        Matcher matcher = VERSION_TAG.matcher(ifMatch.trim());
        try {
            return matcher.matches() ? Long.parseLong(matcher.group(1)) : -1L;
        } catch (NumberFormatException tooLarge) {
            return -1L;
        }
    }

    record ListJson(List<ScheduleJson> schedules) {
    }

    record TimesJson(List<Long> times) {
    }
}
