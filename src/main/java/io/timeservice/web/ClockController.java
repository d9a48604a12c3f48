package io.timeservice.web;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.timeservice.model.AdvanceResult;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.NextAdvance;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Trace;
import io.timeservice.model.TraceStep;
import io.timeservice.store.TimerStore;
import io.timeservice.web.JsonRequest.Advance;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The virtual clock: read it, or advance it and fire every timer that becomes due. */
@RestController
class ClockController {

    /** An advance fires at most this many timers unless its {@code limit} says otherwise ... */
    static final int DEFAULT_ADVANCE_LIMIT = 1000;
    /** ... and never more than this many, so no answer grows without bound. */
    static final int MAX_ADVANCE_LIMIT = 10_000;

    private final TimerStore timers;

    ClockController(TimerStore timers) {
        this.timers = timers;
    }

    @GetMapping(path = "/clock", produces = MediaType.APPLICATION_JSON_VALUE)
    ClockJson clock() {
        return new ClockJson(timers.status(null).now());
    }

    @PostMapping(path = {"/clock/advance", "/clocks/{clock}/advance"}, consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    AdvanceJson advance(@ClockVariable String clock, @RequestBody Advance body,
                        @TraceFlag boolean trace,
                        @RequestParam(required = false) String limit) {
        List<TraceStep> steps = trace ? new ArrayList<>() : null;
        int max = LimitParameter.parse(limit, DEFAULT_ADVANCE_LIMIT, MAX_ADVANCE_LIMIT);
        if (body.next() != null) {
            if (!body.next() || body.by() != null || body.to() != null) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "an advance to the next event is"
                        + " {\"next\": true} alone, without by or to: next " + body.next() + ", by " + body.by()
                        + ", to " + body.to());
            }
            NextAdvance next = timers.advanceToNext(clock, max, Trace.into(steps));
            return AdvanceJson.of(next.result(), steps,
                    next.event() == null ? null : ClocksController.lowerCase(next.event().kind()));
        }
        return AdvanceJson.of(timers.advance(clock, body.by(), body.to(), max, Trace.into(steps)), steps, null);
    }

    record ClockJson(long now) {
    }

    /**
     * @param complete   false when timers are still due at {@code now} (the advance stopped at its limit, or the
     *                   delivery limit held them back); the same call with {@code to} continues
     * @param firedCount how many timers fired (the length of {@code fired})
     */
    record AdvanceJson(long now, List<TimerJson> fired, boolean complete, int firedCount,
                       @JsonInclude(JsonInclude.Include.NON_NULL) List<TraceStepJson> trace,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String event) {

        /** @param event with {@code next}: {@code timer}, {@code lease} or {@code retry}; null otherwise or for none */
        static AdvanceJson of(AdvanceResult result, List<TraceStep> steps, String event) {
            return new AdvanceJson(result.now(), TimerJson.of(result.fired()), result.complete(),
                    result.fired().size(), TraceStepJson.of(steps), event);
        }
    }
}
