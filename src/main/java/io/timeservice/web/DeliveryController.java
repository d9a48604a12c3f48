package io.timeservice.web;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.timeservice.model.BulkOutcome;
import io.timeservice.model.Delivery;
import io.timeservice.model.DeliveryFilter;
import io.timeservice.model.DeliveryRules;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.store.DeliveryStore;
import io.timeservice.tracing.TimerSpans;
import io.timeservice.web.JsonRequest.Ack;
import io.timeservice.web.JsonRequest.AckAll;
import io.timeservice.web.JsonRequest.AckItem;
import io.timeservice.web.JsonRequest.Claim;
import io.timeservice.web.JsonRequest.DeadFilter;
import io.timeservice.web.JsonRequest.Extend;
import io.timeservice.web.JsonRequest.Nack;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The delivery queue of a clock with delivery {@code queue}: workers claim fired timers under a lease, then ack,
 * nack or extend them; dead letters are listed, redriven or deleted. At least once: a consumer deduplicates on
 * {@code (clock, sequence)}, and every delivery names its clock. Every call on a clock that answers fired timers
 * from advance is 409 {@code clock_not_queued}.
 */
@RestController
class DeliveryController {

    static final int DEFAULT_DEAD_LIMIT = 100;
    static final int MAX_DEAD_LIMIT = 1000;

    private final DeliveryStore deliveries;
    private final TimerSpans spans;

    DeliveryController(DeliveryStore deliveries, TimerSpans spans) {
        this.deliveries = deliveries;
        this.spans = spans;
    }

    /** A long poll with {@code wait} holds this request's thread until something is ready or the wait ends. */
    @PostMapping(path = {"/deliveries/claim", "/clocks/{clock}/deliveries/claim"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    DeliveriesJson claim(@ClockVariable String clock, @RequestBody Claim body) {
        List<Delivery> claimed = deliveries.claim(clock,
                body.max() == null ? 1 : body.max(),
                body.lease() == null ? Limits.DEFAULT_LEASE_MILLIS : body.lease(),
                body.waitMillis() == null ? 0 : body.waitMillis());
        spans.received(clock == null ? Limits.DEFAULT_CLOCK : clock, claimed);
        return new DeliveriesJson(DeliveryJson.of(clock, claimed));
    }

    @PostMapping(path = {"/deliveries/{id}/ack", "/clocks/{clock}/deliveries/{id}/ack"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Void> ack(@ClockVariable String clock, @PathVariable String id,
                             @RequestBody Ack body) {
        deliveries.ack(clock, id, body.claim());
        spans.settled(clock == null ? Limits.DEFAULT_CLOCK : clock, id, "ack", null);
        return ResponseEntity.noContent().build();
    }

    /**
     * Many acks in one request, one journal record and one fsync: each answered on its own, in order ({@code acked},
     * or {@code claim_lost}, which changes nothing for that one).
     */
    @PostMapping(path = {"/deliveries/ack", "/clocks/{clock}/deliveries/ack"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    AckResultsJson ackAll(@ClockVariable String clock, @RequestBody AckAll body) {
        List<io.timeservice.model.Ack> acks = new ArrayList<>(body.acks().size());
        for (int i = 0; i < body.acks().size(); i++) {
            AckItem item = body.acks().get(i);
            if (item == null) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "/acks/" + i
                        + " must be an object with id and claim, got null");
            }
            acks.add(new io.timeservice.model.Ack(item.id(), item.claim()));
        }
        List<ErrorCode> outcomes = deliveries.ackAll(clock, acks);
        List<AckResultJson> results = new ArrayList<>(outcomes.size());
        int acked = 0;
        for (int i = 0; i < outcomes.size(); i++) {
            ErrorCode refused = outcomes.get(i);
            acked += refused == null ? 1 : 0;
            if (refused == null) {
                spans.ackedInBatch(clock == null ? Limits.DEFAULT_CLOCK : clock, acks.get(i).id(),
                        body.acks().get(i).traceparent());
            }
            results.add(new AckResultJson(acks.get(i).id(), refused == null ? "acked" : refused.code()));
        }
        return new AckResultsJson(acked, results);
    }

    @PostMapping(path = {"/deliveries/{id}/nack", "/clocks/{clock}/deliveries/{id}/nack"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    DeliveryJson nack(@ClockVariable String clock, @PathVariable String id,
                      @RequestBody Nack body) {
        Delivery nacked = deliveries.nack(clock, id, body.claim(), body.retryAfter());
        spans.settled(clock == null ? Limits.DEFAULT_CLOCK : clock, id, "nack", nacked);
        return DeliveryJson.of(clock, nacked);
    }

    @PostMapping(path = {"/deliveries/{id}/extend", "/clocks/{clock}/deliveries/{id}/extend"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    DeliveryJson extend(@ClockVariable String clock, @PathVariable String id,
                        @RequestBody Extend body) {
        return DeliveryJson.of(clock, deliveries.extend(clock, id, body.claim(), body.lease()));
    }

    @GetMapping(path = {"/deliveries", "/clocks/{clock}/deliveries"}, produces = MediaType.APPLICATION_JSON_VALUE)
    DeliveryCountsJson counts(@ClockVariable String clock) {
        return DeliveryCountsJson.of(deliveries.counts(clock));
    }

    /**
     * Dead deliveries in sequence order, {@code limit} at a time after {@code after}: pass {@code next} on. The
     * filters are those of {@link #list}.
     */
    @GetMapping(path = {"/deliveries/dead", "/clocks/{clock}/deliveries/dead"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    DeadPageJson dead(@ClockVariable String clock, @RequestParam(required = false) String limit,
                      @RequestParam(required = false) String after,
                      @RequestParam(required = false) String idPrefix,
                      @RequestParam(required = false) String minAttempt,
                      @RequestParam(required = false) String reason,
                      @RequestParam(required = false) String deadSince) {
        return page(clock, new DeliveryFilter(Delivery.State.DEAD, idPrefix, minAttemptOf(minAttempt), reason,
                IntegerParameter.parse("deadSince", deadSince)), limit, after);
    }

    /**
     * A clock's deliveries in one state ({@code ready}, {@code in_flight}, {@code waiting}, {@code dead}) in
     * sequence order, {@code limit} at a time after {@code after}, those whose id starts with {@code idPrefix}, whose
     * attempt is at least {@code minAttempt} and (dead ones) whose reason contains {@code reason} and that died at or
     * after {@code deadSince} (clock milliseconds; a dead one's readyAt is its time of death). Claims are not
     * shown: a reader may not settle another's lease.
     */
    @GetMapping(path = {"/deliveries/list", "/clocks/{clock}/deliveries/list"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    DeadPageJson list(@ClockVariable String clock, @RequestParam(required = false) String state,
                      @RequestParam(required = false) String limit,
                      @RequestParam(required = false) String after,
                      @RequestParam(required = false) String idPrefix,
                      @RequestParam(required = false) String minAttempt,
                      @RequestParam(required = false) String reason,
                      @RequestParam(required = false) String deadSince) {
        return page(clock, new DeliveryFilter(DeliveryRules.stateNamed(state), idPrefix, minAttemptOf(minAttempt),
                reason, IntegerParameter.parse("deadSince", deadSince)), limit, after);
    }

    /** How many deliveries {@link #list} would list in all: what a bulk action over dead letters would match now. */
    @GetMapping(path = {"/deliveries/count", "/clocks/{clock}/deliveries/count"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    CountJson count(@ClockVariable String clock, @RequestParam(required = false) String state,
                    @RequestParam(required = false) String idPrefix,
                    @RequestParam(required = false) String minAttempt,
                    @RequestParam(required = false) String reason,
                    @RequestParam(required = false) String deadSince) {
        return new CountJson(deliveries.count(clock, new DeliveryFilter(DeliveryRules.stateNamed(state), idPrefix,
                minAttemptOf(minAttempt), reason, IntegerParameter.parse("deadSince", deadSince))));
    }

    record CountJson(long count) {
    }

    private DeadPageJson page(String clock, DeliveryFilter filter, String limit, String after) {
        int count = LimitParameter.parse(limit, DEFAULT_DEAD_LIMIT, MAX_DEAD_LIMIT);
        Long afterSequence = IntegerParameter.parse("after", after);
        // one more than asked tells whether a next page exists
        List<Delivery> page = deliveries
                .list(clock, filter, count + 1, afterSequence == null ? 0 : afterSequence);
        boolean more = page.size() > count;
        List<Delivery> shown = more ? page.subList(0, count) : page;
        return new DeadPageJson(DeliveryJson.listed(clock, shown), more ? shown.get(count - 1).sequence() : null);
    }

    /** A plain integer from 0 (refused by the rulebook below 1); one past an int's range matches nothing anyway. */
    private static Integer minAttemptOf(String text) {
        Long value = IntegerParameter.parse("minAttempt", text);
        return value == null ? null : (int) Math.min(value, Integer.MAX_VALUE);
    }

    /**
     * Redrives every dead delivery the filter takes, in chunks ({@link DeliveryStore#redriveAllDead}): each chunk is
     * atomic, the whole is not; repeating it changes nothing more.
     */
    @PostMapping(path = {"/deliveries/dead/redrive", "/clocks/{clock}/deliveries/dead/redrive"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    BulkOutcome redriveAll(@ClockVariable String clock, @RequestBody DeadFilter body) {
        return deliveries.redriveAllDead(clock, DeliveryFilter.dead(body.idPrefix(), body.minAttempt(),
                body.reason(), body.deadSince()));
    }

    /** Deletes every dead delivery the filter takes, in chunks, as {@link #redriveAll} redrives them. */
    @PostMapping(path = {"/deliveries/dead/delete", "/clocks/{clock}/deliveries/dead/delete"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    BulkOutcome deleteAll(@ClockVariable String clock, @RequestBody DeadFilter body) {
        return deliveries.deleteAllDead(clock, DeliveryFilter.dead(body.idPrefix(), body.minAttempt(),
                body.reason(), body.deadSince()));
    }

    @PostMapping(path = {"/deliveries/dead/{id}/redrive", "/clocks/{clock}/deliveries/dead/{id}/redrive"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    DeliveriesJson redrive(@ClockVariable String clock, @PathVariable String id,
                           @RequestParam(required = false) String sequence) {
        return new DeliveriesJson(DeliveryJson.of(clock, deliveries
                .redrive(clock, id, IntegerParameter.parse("sequence", sequence))));
    }

    @DeleteMapping(path = {"/deliveries/dead/{id}", "/clocks/{clock}/deliveries/dead/{id}"})
    ResponseEntity<Void> deleteDead(@ClockVariable String clock, @PathVariable String id,
                                    @RequestParam(required = false) String sequence) {
        deliveries.deleteDead(clock, id, IntegerParameter.parse("sequence", sequence));
        return ResponseEntity.noContent().build();
    }

    record DeliveriesJson(List<DeliveryJson> deliveries) {
    }

    /** @param acked how many of {@code results} were acknowledged */
    record AckResultsJson(int acked, List<AckResultJson> results) {
    }

    /** @param outcome {@code acked} or {@code claim_lost} */
    record AckResultJson(String id, String outcome) {
    }

    /** @param next the {@code after} of the next page; absent on the last page */
    record DeadPageJson(List<DeliveryJson> deliveries, @JsonInclude(JsonInclude.Include.NON_NULL) Long next) {
    }
}
