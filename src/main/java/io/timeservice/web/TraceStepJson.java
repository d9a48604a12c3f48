package io.timeservice.web;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.timeservice.model.TraceStep;

/** One recorded heap step on the wire; members that do not apply to the step's kind are left out. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record TraceStepJson(String op, String id, Integer from, Integer to, String otherId, Boolean precedes,
                     String decidedBy) {

    static List<TraceStepJson> of(List<TraceStep> steps) {
        if (steps == null) {
            return null;
        }
        return steps.stream()
                .map(step -> new TraceStepJson(step.op(), step.id(), slotOrNull(step.from()), slotOrNull(step.to()),
                        step.otherId(), step.precedes(), step.decidedBy()))
                .toList();
    }

    private static Integer slotOrNull(int slot) {
        return slot < 0 ? null : slot;
    }
}
