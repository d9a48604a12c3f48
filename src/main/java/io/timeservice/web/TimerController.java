package io.timeservice.web;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.timeservice.model.AddOutcome;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.OnConflict;
import io.timeservice.model.FiringPosition;
import io.timeservice.model.ProblemException;
import io.timeservice.model.QueueListing;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.model.Trace;
import io.timeservice.model.TraceStep;
import io.timeservice.store.TimerStore;
import io.timeservice.web.JsonRequest.AddTimer;
import io.timeservice.web.JsonRequest.EditTimer;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The timer resource: create, read, edit, cancel and list in firing order. */
@RestController
class TimerController {

    static final int DEFAULT_LIST_LIMIT = 100;
    static final int MAX_LIST_LIMIT = 1000;

    private final TimerStore timers;
    private final StrictJsonConverter json;
    private final AddingTraceContext traceContexts;

    TimerController(TimerStore timers, StrictJsonConverter json, AddingTraceContext traceContexts) {
        this.timers = timers;
        this.json = json;
        this.traceContexts = traceContexts;
    }

    @PostMapping(path = {"/timers", "/clocks/{clock}/timers"}, consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> add(@ClockVariable String clock, @RequestBody AddTimer body,
                          @TraceFlag boolean trace, HttpServletRequest request) {
        String payload = json.payloadText(body.payload());
        List<TraceStep> steps = trace ? new ArrayList<>() : null;
        Due due = TimerRules.requireDue(body.delay(), ClockTimeMember.read("at", body.at()));
        if (body.onConflict() != null) {
            return decided(clock, timers.add(clock, body.id(), due, body.priority() == null ? 0 : body.priority(),
                    payload, traceContexts.ofAdd(request, clock, body.id()), body.key(),
                    OnConflict.of(body.onConflict())));
        }
        Timer timer = timers.add(clock, body.id(), due, body.priority() == null ? 0 : body.priority(), payload,
                traceContexts.ofAdd(request, clock, body.id()), body.key(), Trace.into(steps));
        return ResponseEntity.created(URI.create((clock == null ? "" : "/clocks/" + clock) + "/timers/" + timer.id()))
                .eTag(EntityTags.of(timer))
                .body(TimerJson.of(timer, steps));
    }

    /**
     * An add with {@code onConflict}: 201 with the added timer, 200 with the timer kept or replaced, or 200 with the
     * reservation kept ({@code previous}); each with {@code result}.
     */
    private static ResponseEntity<?> decided(String clock, AddOutcome outcome) {
        String result = outcome.result().code();
        if (outcome.timer() == null) {
            return ResponseEntity.ok(new KeptReservationJson(outcome.reservation().id(), result,
                    outcome.reservation().asMember()));
        }
        Timer timer = outcome.timer();
        ResponseEntity.BodyBuilder answer = outcome.result() == AddOutcome.Result.ADDED
                ? ResponseEntity.created(URI.create((clock == null ? "" : "/clocks/" + clock) + "/timers/"
                        + timer.id()))
                : ResponseEntity.ok();
        return answer.eTag(EntityTags.of(timer)).body(TimerJson.of(timer).withResult(result));
    }

    /** A kept reservation: the id the clock keeps reserved and how its timer left ({@code previous}). */
    record KeptReservationJson(String id, String result, java.util.Map<String, Object> previous) {
    }

    @GetMapping(path = {"/timers/{id}", "/clocks/{clock}/timers/{id}"}, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<TimerJson> get(@ClockVariable String clock, @PathVariable String id) {
        Timer timer = timers.get(clock, id);
        return ResponseEntity.ok().eTag(EntityTags.of(timer)).body(TimerJson.of(timer));
    }

    @PatchMapping(path = {"/timers/{id}", "/clocks/{clock}/timers/{id}"}, consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<TimerJson> edit(@ClockVariable String clock, @PathVariable String id,
                                   @RequestBody EditTimer body,
                                   @RequestHeader(name = "If-Match", required = false) String ifMatch,
                                   @TraceFlag boolean trace) {
        List<TraceStep> steps = trace ? new ArrayList<>() : null;
        Due due = TimerRules.editedDue(body.delay(), ClockTimeMember.read("at", body.at()));
        Timer timer = requiringAnyRevision(id, ifMatch, () -> timers.edit(clock, id, due, body.priority(),
                EntityTags.precondition(ifMatch), Trace.into(steps)));
        return ResponseEntity.ok().eTag(EntityTags.of(timer)).body(TimerJson.of(timer, steps));
    }

    /**
     * 204 without a body; with {@code ?trace=true}, 200 with the cancelled timer, the trace and the ETag of the
     * revision that was cancelled (like every response that carries one timer).
     */
    @DeleteMapping(path = {"/timers/{id}", "/clocks/{clock}/timers/{id}"}, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<TimerJson> cancel(@ClockVariable String clock, @PathVariable String id,
                                     @RequestHeader(name = "If-Match", required = false) String ifMatch,
                                     @TraceFlag boolean trace) {
        List<TraceStep> steps = trace ? new ArrayList<>() : null;
        Timer cancelled = requiringAnyRevision(id, ifMatch,
                () -> timers.cancel(clock, id, EntityTags.precondition(ifMatch), Trace.into(steps)));
        return trace ? ResponseEntity.ok().eTag(EntityTags.of(cancelled)).body(TimerJson.of(cancelled, steps))
                : ResponseEntity.noContent().build();
    }

    @GetMapping(path = {"/timers", "/clocks/{clock}/timers"}, produces = MediaType.APPLICATION_JSON_VALUE)
    ListingJson list(@ClockVariable String clock, @RequestParam(required = false) String limit,
                     @RequestParam(required = false) String dueBy,
                     @RequestParam(required = false) String after,
                     @RequestParam(required = false) String idPrefix) {
        int count = LimitParameter.parse(limit, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
        if (dueBy != null) {
            if (after != null || idPrefix != null) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "dueBy lists what an advance would fire; it"
                        + " takes neither after nor idPrefix");
            }
            QueueListing listing = timers.dueBy(clock, IntegerParameter.parse("dueBy", dueBy), count);
            return new ListingJson(listing.now(), listing.size(), TimerJson.of(listing.timers()), null);
        }
        FiringPosition position = FiringPosition.parse(after);
        if (position == null && idPrefix == null) {
            QueueListing listing = timers.firstN(clock, count);
            List<Timer> shown = listing.timers();
            return new ListingJson(listing.now(), listing.size(), TimerJson.of(shown),
                    shown.size() == count && listing.size() > count ? FiringPosition.of(shown.get(count - 1))
                            .toString() : null);
        }
        if (idPrefix != null && idPrefix.length() > Limits.MAX_ID_LENGTH) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "idPrefix must be at most " + Limits.MAX_ID_LENGTH
                    + " characters, got " + idPrefix.length());
        }
        // one more than asked tells whether a next page exists
        QueueListing listing = timers.page(clock, position, idPrefix, count + 1);
        List<Timer> page = listing.timers();
        boolean more = page.size() > count;
        List<Timer> shown = more ? page.subList(0, count) : page;
        return new ListingJson(listing.now(), listing.size(), TimerJson.of(shown),
                more ? FiringPosition.of(shown.get(count - 1)).toString() : null);
    }

    /** Runs a conditional change; with {@code If-Match: *} a missing timer fails the precondition (412), not 404. */
    private static Timer requiringAnyRevision(String id, String ifMatch, Supplier<Timer> change) {
        try {
            return change.get();
        } catch (ProblemException refused) {
            if (refused.code() == ErrorCode.TIMER_NOT_FOUND && EntityTags.isAnyRevision(ifMatch)) {
                throw new ProblemException(ErrorCode.PRECONDITION_FAILED, "If-Match: * needs a current timer, and"
                        + " no pending timer has id " + LoneSurrogates.abbreviate(id, Limits.MAX_ID_LENGTH));
            }
            throw refused;
        }
    }

    /** {@code next}, when more may follow, is the {@code after} of the next page (fireTime,priority,sequence). */
    record ListingJson(long now, int size, List<TimerJson> timers,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String next) {
    }
}
