package io.timeservice.store.memory;

import java.util.List;
import java.util.Map;

import io.timeservice.model.Schedule;

/**
 * A clock's schedules as a snapshot or a fork copies them; their occurrence timers are in the heap's image.
 *
 * @param schedules            every schedule, by id, with its counts and pending occurrence
 * @param triggeredOccurrences pending extra occurrences ({@code trigger}): timer id to schedule id (the schedule may
 *                             be deleted since)
 */
public record ScheduleImage(List<Schedule> schedules, Map<String, String> triggeredOccurrences) {

    public static final ScheduleImage EMPTY = new ScheduleImage(List.of(), Map.of());

    public ScheduleImage {
        schedules = List.copyOf(schedules);
        triggeredOccurrences = Map.copyOf(triggeredOccurrences);
    }
}
