package io.timeservice.web;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.timeservice.model.AddOutcome;
import io.timeservice.model.BatchOp;
import io.timeservice.model.Due;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.OnConflict;
import io.timeservice.model.ProblemException;
import io.timeservice.model.Timer;
import io.timeservice.model.TimerRules;
import io.timeservice.store.TimerStore;
import io.timeservice.web.JsonRequest.Batch;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * Atomic batches: {@code POST /batch} (the default clock) and {@code POST /clocks/{clock}/batch}. Every operation is
 * bound as strictly as the single call's body ({@code op} selects its shape), then the scheduler decides and applies
 * them all or none (one atomic batch of the store). A refusal names the operation in the problem's {@code op} member;
 * a malformed operation is refused before any is decided.
 */
@RestController
class BatchController {

    private final TimerStore timers;
    private final StrictJsonConverter json;
    private final AddingTraceContext traceContexts;

    BatchController(TimerStore timers, StrictJsonConverter json, AddingTraceContext traceContexts) {
        this.timers = timers;
        this.json = json;
        this.traceContexts = traceContexts;
    }

    /** {@code {"op": "add", ...}}: the body of {@code POST /timers}, {@code onConflict} included. */
    record AddOp(String op, @JsonProperty(required = true) String id,
                 @JsonDeserialize(using = AbsentOrNonNull.class) Long delay,
                 @JsonDeserialize(using = AbsentOrNonNull.class) JsonNode at,
                 @JsonDeserialize(using = AbsentOrNonNull.class) Integer priority, JsonNode payload,
                 @JsonDeserialize(using = AbsentOrNonNull.class) String key,
                 @JsonDeserialize(using = AbsentOrNonNull.class) String onConflict) {
    }

    /** {@code {"op": "edit", ...}}: the body of {@code PATCH /timers/{id}}, its id and If-Match as members. */
    record EditOp(String op, @JsonProperty(required = true) String id,
                  @JsonDeserialize(using = AbsentOrNonNull.class) Long delay,
                  @JsonDeserialize(using = AbsentOrNonNull.class) JsonNode at,
                  @JsonDeserialize(using = AbsentOrNonNull.class) Integer priority,
                  @JsonDeserialize(using = AbsentOrNonNull.class) String ifMatch) {
    }

    /** {@code {"op": "cancel", ...}}: {@code DELETE /timers/{id}}, its If-Match as a member. */
    record CancelOp(String op, @JsonProperty(required = true) String id,
                    @JsonDeserialize(using = AbsentOrNonNull.class) String ifMatch) {
    }

    @PostMapping(path = {"/batch", "/clocks/{clock}/batch"}, consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResultsJson batch(@ClockVariable String clock, @RequestBody Batch body, HttpServletRequest request) {
        JsonNode ops = body.ops();
        if (!ops.isArray() || ops.isEmpty() || ops.size() > Limits.MAX_BATCH_OPS) {
            throw StrictJsonConverter.invalidRequest("ops must be a JSON array of 1 to " + Limits.MAX_BATCH_OPS
                    + " operations, got " + (ops.isArray() ? ops.size() + " operations" : "a " + describe(ops)));
        }
        List<BatchOp> batch = new ArrayList<>(ops.size());
        List<String> ifMatches = new ArrayList<>(ops.size());
        List<Boolean> decides = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            try {
                bind(ops.get(i), batch, ifMatches, decides);
            } catch (ProblemException refused) {
                throw refused.atOp(i);
            }
        }
        long adds = batch.stream().filter(BatchOp.Add.class::isInstance).count();
        String context = adds == 0 ? null : traceContexts.ofBatch(request, clock, (int) adds);
        if (context != null) {
            batch.replaceAll(op -> op instanceof BatchOp.Add add ? add.withTraceContext(context) : op);
        }
        List<AddOutcome> outcomes;
        try {
            outcomes = this.timers.batchOutcomes(clock, batch);
        } catch (ProblemException refused) {
            int index = refused.opIndex();
            if (refused.code() == ErrorCode.TIMER_NOT_FOUND && index >= 0
                    && EntityTags.isAnyRevision(ifMatches.get(index))) {
                throw new ProblemException(ErrorCode.PRECONDITION_FAILED, "ifMatch * needs a current timer, and no"
                        + " pending timer has id " + LoneSurrogates.abbreviate(batch.get(index).id(),
                        Limits.MAX_ID_LENGTH)).atOp(index);
            }
            throw refused;
        }
        List<Object> results = new ArrayList<>(outcomes.size());
        for (int i = 0; i < outcomes.size(); i++) {
            results.add(result(batch.get(i), outcomes.get(i), decides.get(i)));
        }
        return new ResultsJson(results);
    }

    /**
     * One operation's result: a cancelled timer's id and tag, or the timer added, edited, kept or replaced; an add
     * with {@code onConflict} says which ({@code result}), and a kept reservation is its id and {@code previous}, as
     * {@code POST /timers} answers them.
     */
    private static Object result(BatchOp op, AddOutcome outcome, boolean decides) {
        Timer timer = outcome.timer();
        if (op instanceof BatchOp.Cancel) {
            return new CancelledJson(timer.id(), EntityTags.of(timer));
        }
        String result = decides ? outcome.result().code() : null;
        if (timer == null) {
            return new TimerController.KeptReservationJson(outcome.reservation().id(), result,
                    outcome.reservation().asMember());
        }
        return TimerWithTagJson.of(timer, result);
    }

    private void bind(JsonNode node, List<BatchOp> batch, List<String> ifMatches, List<Boolean> decides) {
        if (!node.isObject()) {
            throw StrictJsonConverter.invalidRequest("an operation must be a JSON object, got a " + describe(node));
        }
        JsonNode op = node.get("op");
        if (op == null) {
            throw StrictJsonConverter.invalidRequest("member \"op\" is required: one of add, edit, cancel");
        }
        String kind = op.isString() ? op.asString() : null;
        if ("add".equals(kind)) {
            AddOp add = json.bindMember(node, AddOp.class);
            Due due = TimerRules.requireDue(add.delay(), ClockTimeMember.read("at", add.at()));
            OnConflict onConflict = OnConflict.of(add.onConflict());
            batch.add(BatchOp.Add.keyed(add.id(), due, add.priority() == null ? 0 : add.priority(),
                    json.payloadText(add.payload()), add.key()).withOnConflict(onConflict));
            ifMatches.add(null);
            decides.add(add.onConflict() != null);
        } else if ("edit".equals(kind)) {
            EditOp edit = json.bindMember(node, EditOp.class);
            Due due = TimerRules.editedDue(edit.delay(), ClockTimeMember.read("at", edit.at()));
            batch.add(new BatchOp.Edit(edit.id(), due, edit.priority(), EntityTags.precondition(edit.ifMatch())));
            ifMatches.add(edit.ifMatch());
            decides.add(false);
        } else if ("cancel".equals(kind)) {
            CancelOp cancel = json.bindMember(node, CancelOp.class);
            batch.add(new BatchOp.Cancel(cancel.id(), EntityTags.precondition(cancel.ifMatch())));
            ifMatches.add(cancel.ifMatch());
            decides.add(false);
        } else {
            throw StrictJsonConverter.invalidRequest("op must be one of add, edit, cancel, got "
                    + (op.isString() ? "\"" + LoneSurrogates.abbreviate(op.asString(), 32) + "\"" : describe(op)));
        }
    }

    private static String describe(JsonNode value) {
        return value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The answer: each operation's result in order. */
    record ResultsJson(List<Object> results) {
    }

    /**
     * An added, edited, kept or replaced timer with its entity tag; {@code result} (added, kept or replaced) for an
     * add with {@code onConflict}.
     */
    record TimerWithTagJson(String id, long fireTime, int priority, long sequence, long version, long createdAt,
                            @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String payload,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String key, String etag,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String result) {

        static TimerWithTagJson of(Timer timer, String result) {
            return new TimerWithTagJson(timer.id(), timer.fireTime(), timer.priority(), timer.sequence(),
                    timer.version(), timer.createdAt(), timer.payload(), timer.key(), EntityTags.of(timer), result);
        }
    }

    /** A cancelled timer: its id and the entity tag of the revision that was cancelled. */
    record CancelledJson(String id, String etag) {
    }
}
