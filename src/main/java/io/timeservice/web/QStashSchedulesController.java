package io.timeservice.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QStashMessage;
import io.timeservice.model.QStashRules;
import io.timeservice.model.Schedule;
import io.timeservice.model.ScheduleSpec;
import io.timeservice.store.ScheduleStore;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * QStash v2's schedules on TimeService's schedules (issue 47, docs/DROP-IN.md). {@code POST /v2/schedules/{destination}}
 * with {@code Upstash-Cron} puts a cron schedule (id {@code Upstash-Schedule-Id}, else {@code scd_<random>}) on the
 * QStash clock of its {@code Upstash-Retries}, whose payload is the message each occurrence sends; a schedule of that
 * id on another QStash clock goes. List, get, delete, pause and resume look the id up on every QStash clock.
 */
@RestController
class QStashSchedulesController {

    /** A schedule's message fires at its cron times: a delay or a deduplication of its own has no place. */
    private static final List<String> NOT_FOR_SCHEDULES = List.of("upstash-delay", "upstash-not-before",
            "upstash-deduplication-id", "upstash-content-based-deduplication");
    private static final String ZONE_PREFIX = "CRON_TZ=";

    private final ScheduleStore schedules;
    private final QStashClocks clocks;
    private final QStashPublisher publisher;
    private final QStashMessage.Codec messages;

    QStashSchedulesController(ScheduleStore schedules, QStashClocks clocks, QStashPublisher publisher,
                              QStashMessage.Codec messages) {
        this.schedules = schedules;
        this.clocks = clocks;
        this.publisher = publisher;
        this.messages = messages;
    }

    @PostMapping("/v2/schedules/{scheduleId}") // the destination: QStashPaths moved it to an attribute
    ResponseEntity<Map<String, Object>> create(HttpServletRequest request,
                                               @RequestBody(required = false) byte[] body) {
        Map<String, String> headers = QStashPublisher.headersOf(request);
        String cron = headers.get("Upstash-Cron");
        if (cron == null || cron.isBlank()) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "Upstash-Cron is missing: a schedule needs its"
                    + " cron expression");
        }
        String zone = null;
        cron = cron.trim();
        if (cron.startsWith(ZONE_PREFIX)) {
            int space = cron.indexOf(' ');
            zone = space < 0 ? cron.substring(ZONE_PREFIX.length()) : cron.substring(ZONE_PREFIX.length(), space);
            cron = space < 0 ? "" : cron.substring(space + 1).trim();
        }
        Object destination = request.getAttribute(QStashPaths.DESTINATION);
        QStashPublisher.Prepared message = publisher.prepare(destination instanceof String url ? url : null, headers,
                body == null ? new byte[0] : body, NOT_FOR_SCHEDULES);
        String id = headers.getOrDefault("Upstash-Schedule-Id",
                "scd_" + UUID.randomUUID().toString().replace("-", ""));
        String clock = clocks.require(message.retries());
        ScheduleSpec spec = new ScheduleSpec(cron, null, zone, null, null, null, 0, message.payload(),
                ScheduleSpec.CatchUp.ALL, false);
        Schedule.Put put = schedules.put(clock, id, spec, null);
        for (String other : clocks.existing()) {
            if (!other.equals(clock)) {
                forget(() -> schedules.delete(other, id, null)); // moved to another retry count
            }
        }
        return ResponseEntity.status(put.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .body(Map.of("scheduleId", put.schedule().id()));
    }

    @GetMapping("/v2/schedules")
    List<Map<String, Object>> list() {
        List<Map<String, Object>> views = new ArrayList<>();
        for (String clock : clocks.existing()) {
            for (Schedule schedule : schedules.list(clock)) {
                QStashMessage message = messages.read(schedule.spec().payload());
                if (message != null) {
                    views.add(QStashViews.schedule(schedule, message, QStashRules.retriesOf(clock)));
                }
            }
        }
        return views;
    }

    @GetMapping("/v2/schedules/{scheduleId}")
    Map<String, Object> get(@PathVariable String scheduleId) {
        return on(scheduleId, (clock, id) -> {
            Schedule schedule = schedules.get(clock, id);
            QStashMessage message = messages.read(schedule.spec().payload());
            if (message == null) {
                throw notFound(id);
            }
            return QStashViews.schedule(schedule, message, QStashRules.retriesOf(clock));
        });
    }

    @DeleteMapping("/v2/schedules/{scheduleId}")
    ResponseEntity<Void> delete(@PathVariable String scheduleId) {
        on(scheduleId, (clock, id) -> schedules.delete(clock, id, null));
        return ResponseEntity.ok().build();
    }

    @PatchMapping("/v2/schedules/{scheduleId}/pause")
    ResponseEntity<Void> pause(@PathVariable String scheduleId) {
        on(scheduleId, (clock, id) -> schedules.pause(clock, id, null));
        return ResponseEntity.ok().build();
    }

    @PatchMapping("/v2/schedules/{scheduleId}/resume")
    ResponseEntity<Void> resume(@PathVariable String scheduleId) {
        on(scheduleId, (clock, id) -> schedules.resume(clock, id, null));
        return ResponseEntity.ok().build();
    }

    /** {@code call} on the QStash clock that holds schedule {@code id}. */
    private <T> T on(String id, BiFunction<String, String, T> call) {
        for (String clock : clocks.existing()) {
            try {
                return call.apply(clock, id);
            } catch (ProblemException absent) {
                if (absent.code() != ErrorCode.SCHEDULE_NOT_FOUND && absent.code() != ErrorCode.CLOCK_NOT_FOUND) {
                    throw absent;
                }
            }
        }
        throw notFound(id);
    }

    private static void forget(Runnable delete) {
        try {
            delete.run();
        } catch (ProblemException absent) {
            if (absent.code() != ErrorCode.SCHEDULE_NOT_FOUND && absent.code() != ErrorCode.CLOCK_NOT_FOUND) {
                throw absent;
            }
        }
    }

    private static ProblemException notFound(String id) {
        return new ProblemException(ErrorCode.SCHEDULE_NOT_FOUND, "no QStash schedule has the id " + id);
    }
}
