package io.timeservice.web;

import java.util.List;
import java.util.Map;

import io.timeservice.model.HeapView;
import io.timeservice.model.InvariantReport;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.Timer;
import io.timeservice.store.QueueInspector;
import io.timeservice.store.TimerStore;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Views of the whole queue: status, the next timer, the invariant report and the backing array. */
@RestController
class QueueController {

    static final int DEFAULT_HEAP_LIMIT = 63;
    static final int MAX_HEAP_LIMIT = 1023;

    private final TimerStore timers;
    /** The heap views (invariants, heap array) as the store has them. */
    private final QueueInspector inspector;

    QueueController(TimerStore timers, QueueInspector inspector) {
        this.timers = timers;
        this.inspector = inspector;
    }

    @GetMapping(path = {"/queue", "/clocks/{clock}/queue"}, produces = MediaType.APPLICATION_JSON_VALUE)
    QueueJson queue(@ClockVariable String clock) {
        QueueStatus status = timers.status(clock);
        return new QueueJson(status.now(), status.size(), status.nextFireTime(), status.oldestCreatedAt());
    }

    @GetMapping(path = {"/queue/next", "/clocks/{clock}/queue/next"}, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<TimerJson> next(@ClockVariable String clock) {
        Timer next = timers.peek(clock);
        return ResponseEntity.ok().eTag(EntityTags.of(next)).body(TimerJson.of(next));
    }

    @GetMapping(path = {"/queue/invariants", "/clocks/{clock}/queue/invariants"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    InvariantsJson invariants(@ClockVariable String clock) {
        return InvariantsJson.of(inspector.invariants(clock));
    }

    /** The first array slots in heap-array order (not firing order), for the live heap view. */
    @GetMapping(path = {"/queue/heap", "/clocks/{clock}/queue/heap"}, produces = MediaType.APPLICATION_JSON_VALUE)
    HeapJson heap(@ClockVariable String clock, @RequestParam(required = false) String limit) {
        int cells = LimitParameter.parse(limit, DEFAULT_HEAP_LIMIT, MAX_HEAP_LIMIT);
        HeapView view = inspector.heapView(clock, cells);
        return new HeapJson(view.arity(), view.size(), view.now(), view.slots(), view.index(),
                InvariantsJson.of(view.invariants()));
    }

    record QueueJson(long now, int size, Long nextFireTime, Long oldestCreatedAt) {
    }

    /**
     * @param checkedAt wall-clock epoch milliseconds at which the checked state was read
     * @param current   false when the report describes an earlier state: a large queue is walked at most once per
     *                  {@code timeservice.invariants.min-check-interval}
     */
    record InvariantsJson(boolean ok, List<InvariantReport.Check> checks, long checkedAt, boolean current) {

        static InvariantsJson of(InvariantReport report) {
            return new InvariantsJson(report.ok(), report.checks(), report.checkedAt(), report.current());
        }
    }

    record HeapJson(int arity, int size, long now, List<HeapView.Cell> slots, Map<String, Integer> index,
                    InvariantsJson invariants) {
    }
}
