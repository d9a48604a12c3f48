package io.timeservice.client;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The recurring schedules of one clock ({@link ClockClient#schedules()}): each keeps one occurrence pending as an
 * ordinary timer {@code <id>:<time>}, which fires in the clock's one order with its other timers (answered by an
 * advance, queued or pushed as the clock delivers) and is followed by the next occurrence in the same step. The
 * timer calls read an occurrence but refuse to change it (409 {@code schedule_owned}). A handle like the clock's:
 * immutable and thread-safe.
 *
 * <pre>{@code
 * ScheduleClient schedules = clock.schedules();
 * schedules.put("backup", ScheduleSpec.cron("30 2 * * *", ZoneId.of("Europe/Berlin")));
 * clock.advance(Duration.ofDays(1));       // fires backup:<02:30 Berlin> as a timer
 * }</pre>
 *
 * <p>Refusals are {@link TimeServiceException}s: 400 {@code invalid_schedule} for a spec the service refuses,
 * 404 {@code schedule_not_found}, 412 {@code precondition_failed} for a stale If-Match, 429 {@code schedule_limit}.
 */
public final class ScheduleClient {

    private final Transport transport;
    private final String path;

    ScheduleClient(Transport transport, String path) {
        this.transport = transport;
        this.path = path;
    }

    /**
     * Creates the schedule, or replaces it (a replace keeps the counts and continues after the last occurrence fired
     * or skipped, so none fires twice). Its first occurrence is its first time after the clock's now.
     */
    public Schedule put(String id, ScheduleSpec spec) {
        return put(id, spec, null);
    }

    /** Replaces the schedule only if its version matches {@code ifMatch} ({@link Schedule#etag()} or {@code *}). */
    public Schedule put(String id, ScheduleSpec spec, String ifMatch) {
        return send("PUT", schedule(id), spec, ifMatch);
    }

    /** The schedule, or empty when the clock has none with that id. */
    public Optional<Schedule> get(String id) {
        return transport.find(Transport.Call.get(schedule(id)), "schedule_not_found").map(Schedule::of);
    }

    /** Every schedule of the clock, by id. */
    public List<Schedule> list() {
        List<Schedule> schedules = new ArrayList<>();
        transport.send(Transport.Call.get(path)).body().get("schedules")
                .forEach(node -> schedules.add(Schedule.of(node)));
        return schedules;
    }

    /** Deletes the schedule and its pending occurrence (a triggered occurrence still pending fires). */
    public void delete(String id) {
        delete(id, null);
    }

    /** Deletes the schedule only if its version matches {@code ifMatch}. */
    public void delete(String id, String ifMatch) {
        transport.send(Transport.Call.once("DELETE", schedule(id), null).ifMatch(ifMatch));
    }

    /** The next {@code count} (1 to 1,000) times the schedule will fire, its end and limit applied; changes nothing. */
    public List<Instant> next(String id, int count) {
        List<Instant> times = new ArrayList<>();
        transport.send(Transport.Call.get(schedule(id) + "/next?count=" + count)).body().get("times")
                .forEach(time -> times.add(Instant.ofEpochMilli(time.asLong())));
        return times;
    }

    /** Pauses the schedule: occurrences that come due while it is paused are skipped and counted. */
    public Schedule pause(String id) {
        return pause(id, null);
    }

    /** Pauses the schedule only if its version matches {@code ifMatch} ({@link Schedule#etag()} or {@code *}). */
    public Schedule pause(String id, String ifMatch) {
        return send("POST", schedule(id) + "/pause", null, ifMatch);
    }

    /** Resumes a paused schedule with its first occurrence after the clock's now. */
    public Schedule resume(String id) {
        return resume(id, null);
    }

    /** Resumes the schedule only if its version matches {@code ifMatch} ({@link Schedule#etag()} or {@code *}). */
    public Schedule resume(String id, String ifMatch) {
        return send("POST", schedule(id) + "/resume", null, ifMatch);
    }

    /**
     * Adds one extra occurrence due at the clock's now (it fires at the next advance of a virtual clock); it counts
     * in {@code fired} and {@code triggered}, not against the limit, and the pending occurrence stays. Answers it.
     */
    public Timer trigger(String id) {
        return Timer.of(transport.send(Transport.Call.once("POST", schedule(id) + "/trigger", null)).body());
    }

    private Schedule send(String method, String target, ScheduleSpec spec, String ifMatch) {
        Transport.Call call = Transport.Call.once(method, target, spec == null ? null : spec.json()).ifMatch(ifMatch);
        return Schedule.of(transport.send(call).body());
    }

    private String schedule(String id) {
        return path + "/" + Transport.segment(id);
    }

    @Override
    public String toString() {
        return "ScheduleClient[" + transport.base() + path + "]";
    }
}
