package io.timeservice.web;

import java.util.List;
import java.util.Map;

import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Precondition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QStashMessage;
import io.timeservice.model.QStashRules;
import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.DeliveryStore;
import io.timeservice.store.TimerStore;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * QStash v2's messages (issue 47, docs/DROP-IN.md): {@code GET /v2/messages/{id}} reads a pending message and
 * {@code DELETE /v2/messages/{id}} (or {@code DELETE /v2/messages?messageIds=...}, or {@code ?all=true}, as the SDK's
 * {@code cancel} sends them) cancels pending ones. A message is pending until its first attempt; then, until it is
 * delivered or dead, get still shows it (a push delivery, ready, in flight or waiting for its retry), but only its
 * delivery can be settled: cancel answers 404. The id names no clock, so each QStash clock is asked.
 */
@RestController
class QStashMessagesController {

    private static final int PAGE = 1_000;
    private static final List<Delivery.State> IN_PROGRESS = List.of(Delivery.State.READY, Delivery.State.IN_FLIGHT,
            Delivery.State.WAITING);

    private final TimerStore timers;
    private final QStashClocks clocks;
    private final QStashMessage.Codec messages;
    private final DeliveryStore deliveries;

    QStashMessagesController(TimerStore timers, DeliveryStore deliveries, QStashClocks clocks,
                             QStashMessage.Codec messages) {
        this.timers = timers;
        this.deliveries = deliveries;
        this.clocks = clocks;
        this.messages = messages;
    }

    @GetMapping("/v2/messages/{messageId}")
    Map<String, Object> get(@PathVariable String messageId) {
        for (String clock : clocks.existing()) {
            Timer timer = find(clock, messageId);
            QStashMessage message = timer == null ? null : messages.read(timer.payload());
            if (message != null) {
                return QStashViews.message(timer, message, QStashRules.retriesOf(clock));
            }
        }
        for (String clock : clocks.existing()) {
            for (Delivery.State state : IN_PROGRESS) {
                for (Delivery delivery : deliveries.list(clock, new DeliveryFilter(state, messageId, null, null),
                        PAGE, 0)) {
                    QStashMessage message = messages.read(delivery.payload());
                    if (delivery.id().equals(messageId) && message != null) {
                        return QStashViews.message(delivery, message, QStashRules.retriesOf(clock));
                    }
                }
            }
        }
        throw notFound(messageId);
    }

    @DeleteMapping("/v2/messages/{messageId}")
    Map<String, Object> cancel(@PathVariable String messageId) {
        for (String clock : clocks.existing()) {
            if (find(clock, messageId) != null) {
                timers.cancel(clock, messageId, Precondition.NONE, Trace.NONE);
                return Map.of("cancelled", 1);
            }
        }
        throw notFound(messageId);
    }

    /** {@code messageIds} (each one pending is cancelled, the others are not counted) or {@code all=true}. */
    @DeleteMapping("/v2/messages")
    Map<String, Object> cancelMany(@RequestParam MultiValueMap<String, String> query) {
        for (String name : query.keySet()) {
            if (!List.of("messageIds", "all", "count", "cursor").contains(name)) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "the filter " + name + " is not supported by"
                        + " TimeService's QStash API (docs/DROP-IN.md): cancel by messageIds or all=true");
            }
        }
        List<String> ids = query.getOrDefault("messageIds", List.of());
        boolean all = "true".equals(query.getFirst("all")) || ids.isEmpty(); // the SDK's {all: true} sends count only
        int cancelled = 0;
        for (String clock : clocks.existing()) {
            cancelled += all ? cancelAll(clock) : cancelEach(clock, ids);
        }
        return Map.of("cancelled", cancelled);
    }

    private int cancelEach(String clock, List<String> ids) {
        int cancelled = 0;
        for (String id : ids) {
            Timer timer = find(clock, id);
            if (timer != null && timer.schedule() == null && cancelOne(clock, id)) {
                cancelled++;
            }
        }
        return cancelled;
    }

    /** Cancels every pending message of {@code clock} but schedules' occurrences, which their schedules own. */
    private int cancelAll(String clock) {
        int cancelled = 0;
        while (true) {
            List<Timer> page = timers.firstN(clock, PAGE).timers();
            int before = cancelled;
            for (Timer timer : page) {
                if (timer.schedule() == null && cancelOne(clock, timer.id())) {
                    cancelled++;
                }
            }
            if (page.size() < PAGE || cancelled == before) {
                return cancelled;
            }
        }
    }

    private boolean cancelOne(String clock, String id) {
        try {
            timers.cancel(clock, id, Precondition.NONE, Trace.NONE);
            return true;
        } catch (ProblemException gone) { // fired or cancelled meanwhile
            if (gone.code() != ErrorCode.TIMER_NOT_FOUND) {
                throw gone;
            }
            return false;
        }
    }

    /** The pending timer {@code id} of {@code clock}, or null. */
    private Timer find(String clock, String id) {
        try {
            return timers.get(clock, id);
        } catch (ProblemException absent) {
            if (absent.code() != ErrorCode.TIMER_NOT_FOUND && absent.code() != ErrorCode.CLOCK_NOT_FOUND) {
                throw absent;
            }
            return null;
        }
    }

    private static ProblemException notFound(String messageId) {
        return new ProblemException(ErrorCode.TIMER_NOT_FOUND, "no pending message has the id " + messageId
                + " (delivered, dead, cancelled or never published; a message in its retries cannot be cancelled)");
    }
}
