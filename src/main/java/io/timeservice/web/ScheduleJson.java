package io.timeservice.web;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;

/**
 * The schedule resource: the spec as given (an interval's implied start filled in), then what firing has done.
 * {@code next} is null (present) once no occurrence is left.
 */
record ScheduleJson(String id, @JsonInclude(JsonInclude.Include.NON_NULL) String cron,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Long every,
                    @JsonInclude(JsonInclude.Include.NON_NULL) String zone,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Long start,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Long end,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Long limit, int priority,
                    @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String payload, String catchUp,
                    boolean paused, Long next, long fired, long skipped, long triggered, String state,
                    long version, @JsonInclude(JsonInclude.Include.NON_NULL) String key) {

    static ScheduleJson of(Schedule schedule) {
        ScheduleSpec spec = schedule.spec();
        return new ScheduleJson(schedule.id(), spec.cron(), spec.every(), spec.cron() == null ? null : spec.zoneOrUtc(),
                spec.start(), spec.end(), spec.limit(), spec.priority(), spec.payload(), spec.catchUp().wire(),
                spec.paused(), schedule.next(), schedule.fired(), schedule.skipped(), schedule.triggered(),
                schedule.state().wire(), schedule.version(), spec.key());
    }

    static List<ScheduleJson> of(List<Schedule> schedules) {
        return schedules.stream().map(ScheduleJson::of).toList();
    }
}
