package io.timeservice.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.timeservice.core.AdvanceResult;
import io.timeservice.core.ErrorCode;
import io.timeservice.core.TimerScheduler;
import io.timeservice.core.TraceStep;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The virtual clock: read it, or advance it and fire every timer that becomes due. */
@RestController
class ClockController {

    private static final Set<String> ADVANCE_MEMBERS = Set.of("by");

    private final TimerScheduler scheduler;
    private final JsonRequests json;

    ClockController(TimerScheduler scheduler, JsonRequests json) {
        this.scheduler = scheduler;
        this.json = json;
    }

    @GetMapping(path = "/clock", produces = MediaType.APPLICATION_JSON_VALUE)
    ClockJson clock() {
        return new ClockJson(scheduler.now());
    }

    @PostMapping(path = "/clock/advance", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    AdvanceJson advance(HttpServletRequest request, @RequestParam(defaultValue = "false") boolean trace) {
        long by = JsonRequests.nonNegativeLong(
                JsonRequests.required(json.readObject(request, ADVANCE_MEMBERS), "by"), "by",
                ErrorCode.INVALID_ADVANCE);
        List<TraceStep> steps = trace ? new ArrayList<>() : null;
        AdvanceResult result = scheduler.advance(by, steps);
        return new AdvanceJson(result.now(), TimerJson.of(result.fired()), TraceStepJson.of(steps));
    }

    record ClockJson(long now) {
    }

    record AdvanceJson(long now, List<TimerJson> fired,
                       @JsonInclude(JsonInclude.Include.NON_NULL) List<TraceStepJson> trace) {
    }
}
