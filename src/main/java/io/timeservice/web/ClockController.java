package io.timeservice.web;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.timeservice.core.AdvanceResult;
import io.timeservice.core.Clocks;
import io.timeservice.core.TimerScheduler;
import io.timeservice.core.Trace;
import io.timeservice.core.TraceStep;
import io.timeservice.web.JsonRequest.Advance;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The virtual clock: read it, or advance it and fire every timer that becomes due. */
@RestController
class ClockController {

    private final TimerScheduler scheduler;
    private final Clocks clocks;

    ClockController(TimerScheduler scheduler, Clocks clocks) {
        this.scheduler = scheduler;
        this.clocks = clocks;
    }

    @GetMapping(path = "/clock", produces = MediaType.APPLICATION_JSON_VALUE)
    ClockJson clock() {
        return new ClockJson(scheduler.now());
    }

    @PostMapping(path = {"/clock/advance", "/clocks/{clock}/advance"}, consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    AdvanceJson advance(@PathVariable(required = false) String clock, @RequestBody Advance body,
                        @RequestParam(defaultValue = "false") boolean trace) {
        List<TraceStep> steps = trace ? new ArrayList<>() : null;
        AdvanceResult result = ClocksController.scheduler(clocks, clock).advance(body.by(), Trace.into(steps));
        return new AdvanceJson(result.now(), TimerJson.of(result.fired()), TraceStepJson.of(steps));
    }

    record ClockJson(long now) {
    }

    record AdvanceJson(long now, List<TimerJson> fired,
                       @JsonInclude(JsonInclude.Include.NON_NULL) List<TraceStepJson> trace) {
    }
}
