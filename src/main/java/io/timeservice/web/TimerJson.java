package io.timeservice.web;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.timeservice.model.Timer;
import io.timeservice.model.TraceStep;

/**
 * The timer resource. {@code payload} is the caller's JSON, stored as compact text and written back verbatim;
 * {@code trace} appears only when the request asked for {@code ?trace=true}; {@code key} (flow control) only when
 * the timer has one.
 */
record TimerJson(String id, long fireTime, int priority, long sequence, long version, long createdAt,
                 @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String payload,
                 @JsonInclude(JsonInclude.Include.NON_NULL) String schedule,
                 @JsonInclude(JsonInclude.Include.NON_NULL) String key,
                 @JsonInclude(JsonInclude.Include.NON_NULL) List<TraceStepJson> trace,
                 @JsonInclude(JsonInclude.Include.NON_NULL) String result) {

    static TimerJson of(Timer timer) {
        return of(timer, null);
    }

    static TimerJson of(Timer timer, List<TraceStep> trace) {
        return new TimerJson(timer.id(), timer.fireTime(), timer.priority(), timer.sequence(), timer.version(),
                timer.createdAt(), timer.payload(), timer.schedule(), timer.key(), TraceStepJson.of(trace), null);
    }

    /** The timer an add with {@code onConflict} added, kept or replaced, with what happened ({@code result}). */
    TimerJson withResult(String what) {
        return new TimerJson(id, fireTime, priority, sequence, version, createdAt, payload, schedule, key, trace,
                what);
    }

    static List<TimerJson> of(List<Timer> timers) {
        return timers.stream().map(TimerJson::of).toList();
    }
}
