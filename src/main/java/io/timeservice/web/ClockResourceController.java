package io.timeservice.web;

import java.net.URI;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.timeservice.model.ClockChange;
import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.ClockView;
import io.timeservice.model.ErrorCode;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowRate;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.PushTargetGuard;
import io.timeservice.model.QueueStatus;
import io.timeservice.model.RetryPolicy;
import io.timeservice.store.ClockStore;
import io.timeservice.store.PushHistory;
import io.timeservice.web.JsonRequest.PatchClock;
import io.timeservice.web.JsonRequest.Push;
import io.timeservice.web.JsonRequest.PutClock;
import io.timeservice.web.JsonRequest.Retry;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The clocks resource: create (idempotent PUT), read, list by name, change a scaled clock's rate (PATCH) and delete
 * clocks, virtual, system or scaled. What lies under {@code /clocks/{clock}/} is served by the other controllers
 * (timers, batch, queue, deliveries, schedules, snapshot), parameterized by clock; a clock's time (read, advance) by
 * {@link ClockTimeController}.
 */
@RestController
class ClockResourceController {

    static final int DEFAULT_LIST_LIMIT = 100;
    static final int MAX_LIST_LIMIT = 1000;

    private final ClockStore clocks;
    private final PushTargetGuard targets;
    private final PushHistory pushes;

    ClockResourceController(ClockStore clocks, PushTargetGuard targets, PushHistory pushes) {
        this.clocks = clocks;
        this.targets = targets;
        this.pushes = pushes;
    }

    @PutMapping(path = "/clocks/{clock}", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ClockJson> put(@PathVariable String clock, @RequestBody PutClock body) {
        if (body.copyOf() != null) {
            if (body.now() != null || body.mode() != null || body.delivery() != null || body.retry() != null
                    || body.rate() != null || body.push() != null || body.dedupeWindow() != null || body.flowControl()) {
                throw new ProblemException(ErrorCode.INVALID_REQUEST, "a copy takes the time and settings of its"
                        + " source: copyOf (" + body.copyOf() + ") goes alone, without now, mode, delivery, retry,"
                        + " rate, push, dedupeWindow, flow, clockConcurrency or clockRate");
            }
            return ResponseEntity.created(URI.create("/clocks/" + clock))
                    .body(describe(clocks.copy(clock, body.copyOf()).clock()));
        }
        ClockSettings settings = settings(body);
        if (settings.isSystem() && body.now() != null) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "now is only for virtual and scaled clocks: a"
                    + " system clock's now is the wall clock's");
        }
        if (settings.pushes()) {
            targets.requireAllowed(settings.push()); // resolves the host: before the store is asked
        }
        ClockView.Created created = clocks.create(clock, body.now() == null ? 0 : body.now(), settings);
        ClockJson json = describe(created.clock());
        return created.created() ? ResponseEntity.created(URI.create("/clocks/" + clock)).body(json)
                : ResponseEntity.ok(json);
    }

    /**
     * A scaled clock's new rate, from its time now on; or a live clock's change (issue 47, {@link ClockChange}):
     * paused, its retry policy (members left out keep the clock's), its clock-wide flow limits.
     */
    @PatchMapping(path = "/clocks/{clock}", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ClockJson patch(@PathVariable String clock, @RequestBody PatchClock body) {
        boolean change = body.paused() != null || body.retry() != null || body.clockConcurrency() != null
                || body.clockRate() != null;
        if (body.rate() != null && change) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a rate change goes alone: {\"rate\": 60}, then"
                    + " paused, retry, clockConcurrency or clockRate in a second PATCH");
        }
        if (body.rate() == null && !change) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "a PATCH of a clock needs a rate ({\"rate\": 60})"
                    + " or a change: paused, retry, clockConcurrency, clockRate");
        }
        if (body.rate() != null) {
            return describe(clocks.rerate(clock, ClockRate.of(body.rate())));
        }
        RetryPolicy retry = body.retry() == null ? null : retryPolicy(body.retry(), clocks.get(clock).settings().retry());
        return describe(clocks.change(clock, new ClockChange(body.paused(), retry, body.clockConcurrency(),
                flowRate(body.clockRate()), null)));
    }

    /** Holds the clock's deliveries back until {@code /resume}: see {@link ClockChange}. */
    @PostMapping(path = "/clocks/{clock}/pause", produces = MediaType.APPLICATION_JSON_VALUE)
    ClockJson pause(@PathVariable String clock) {
        return describe(clocks.change(clock, ClockChange.pause(true)));
    }

    /** Hands the clock's deliveries out again, held ones first in its ready order. */
    @PostMapping(path = "/clocks/{clock}/resume", produces = MediaType.APPLICATION_JSON_VALUE)
    ClockJson resume(@PathVariable String clock) {
        return describe(clocks.change(clock, ClockChange.pause(false)));
    }

    @GetMapping(path = "/clocks/{clock}", produces = MediaType.APPLICATION_JSON_VALUE)
    ClockJson get(@PathVariable String clock) {
        return describe(clocks.get(clock));
    }

    @DeleteMapping(path = "/clocks/{clock}")
    ResponseEntity<Void> delete(@PathVariable String clock) {
        clocks.delete(clock);
        pushes.forget(clock); // its recent push attempts: a clock made again under the name shows none of them
        return ResponseEntity.noContent().build();
    }

    /** Clocks by name, {@code limit} at a time after {@code after}: pass the last name of a page to get the next. */
    @GetMapping(path = "/clocks", produces = MediaType.APPLICATION_JSON_VALUE)
    ClockListJson list(@RequestParam(required = false) String limit, @RequestParam(required = false) String after) {
        List<ClockView> page = clocks.list(LimitParameter.parse(limit, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT), after);
        return new ClockListJson(page.stream().map(ClockResourceController::describe).toList());
    }

    /** The settings a body asks for, each absent one at its default. */
    private static ClockSettings settings(PutClock body) {
        ClockSettings.Mode mode = body.mode() == null ? null : switch (body.mode()) {
            case VIRTUAL -> ClockSettings.Mode.VIRTUAL;
            case SYSTEM -> ClockSettings.Mode.SYSTEM;
            case SCALED -> ClockSettings.Mode.SCALED;
        };
        ClockSettings.DeliveryMode delivery = body.delivery() == null ? null : switch (body.delivery()) {
            case RESPONSE -> ClockSettings.DeliveryMode.RESPONSE;
            case QUEUE -> ClockSettings.DeliveryMode.QUEUE;
            case PUSH -> ClockSettings.DeliveryMode.PUSH;
        };
        // a rate without mode "scaled" is refused by ClockSettings, the rule's one place
        ClockRate rate = body.rate() == null ? null : ClockRate.of(body.rate());
        if (delivery == ClockSettings.DeliveryMode.PUSH && body.push() == null) {
            throw new ProblemException(ErrorCode.INVALID_REQUEST, "delivery \"push\" needs push: {\"url\": ...}");
        }
        return ClockSettings.of(mode, delivery, body.retry() == null ? null : retryPolicy(body.retry(),
                        RetryPolicy.DEFAULT), rate,
                body.push() == null ? null : pushTarget(body.push()))
                .withDedupeWindow(body.dedupeWindow() == null ? 0 : body.dedupeWindow())
                .withFlow(flowLimits(body));
    }

    /** The flow control a body asks for, or null when it names none. */
    private static FlowLimits flowLimits(PutClock body) {
        if (!body.flowControl()) {
            return null;
        }
        JsonRequest.Flow flow = body.flow();
        return new FlowLimits(flow == null ? null : flow.concurrency(), flow == null ? null : flowRate(flow.rate()),
                flow == null ? null : flow.burst(), body.clockConcurrency(), flowRate(body.clockRate()));
    }

    private static FlowRate flowRate(JsonRequest.Rate rate) {
        return rate == null ? null : new FlowRate(rate.limit(), rate.period());
    }

    private static PushTarget pushTarget(Push push) {
        return new PushTarget(push.url(),
                push.timeout() != null ? push.timeout() : PushTarget.DEFAULT_TIMEOUT_MILLIS,
                push.concurrency() != null ? push.concurrency() : PushTarget.DEFAULT_CONCURRENCY,
                push.headers(), push.secrets());
    }

    /** The retry policy {@code retry} asks for, each absent member at {@code defaults}' value. */
    private static RetryPolicy retryPolicy(Retry retry, RetryPolicy defaults) {
        return new RetryPolicy(
                retry.maxAttempts() != null ? retry.maxAttempts() : defaults.maxAttempts(),
                retry.initialBackoff() != null ? retry.initialBackoff() : defaults.initialBackoffMillis(),
                retry.multiplier() != null ? retry.multiplier() : defaults.multiplier(),
                retry.maxBackoff() != null ? retry.maxBackoff() : defaults.maxBackoffMillis(),
                retry.jitter() != null ? retry.jitter() : defaults.jitter(),
                retry.maxRetryDuration() != null ? retry.maxRetryDuration() : defaults.maxRetryDurationMillis());
    }

    static ClockJson describe(ClockView clock) {
        QueueStatus status = clock.status();
        Long oldestAge = status.oldestCreatedAt() == null ? null : status.now() - status.oldestCreatedAt();
        ClockSettings settings = clock.settings();
        return new ClockJson(clock.name(), status.now(), status.size(), clock.schedules(), status.nextFireTime(),
                oldestAge,
                clock.createdAtWallMillis(), clock.deletesAt(), lowerCase(settings.mode()),
                settings.rate() == null ? null : settings.rate().value(), lowerCase(settings.delivery()),
                RetryJson.of(settings.retry()), PushJson.of(settings.push()), settings.dedupeWindowMillis(),
                clock.deliveries() == null ? null : DeliveryCountsJson.of(clock.deliveries()),
                FlowJson.of(settings.flow()), settings.flow() == null ? null : settings.flow().clockConcurrency(),
                settings.flow() == null ? null : RateJson.of(settings.flow().clockRate()), settings.paused());
    }

    /**
     * @param schedules how many schedules the clock has (active, paused and done)
     * @param oldestAge virtual milliseconds the longest-waiting pending timer has waited (now - its createdAt), or
     *                  null when none is pending
     * @param createdAt wall-clock epoch milliseconds of the creation; 0 for {@code default}, which always existed
     * @param deletesAt with {@code timeservice.clocks.idle-ttl} set, when the clock is deleted unless a call addresses
     *                  it first (wall-clock epoch milliseconds); absent otherwise, and always for {@code default}
     * @param rate       a scaled clock's clock milliseconds per wall-clock millisecond; absent for other clocks
     * @param push       a push clock's target without its secrets; absent for other clocks
     * @param dedupeWindow milliseconds an id stays reserved after its timer left the pending set; 0: none
     * @param deliveries the deliveries by state, for a clock that queues them; absent otherwise
     * @param flow       per-key flow control, when the clock has any; {@code clockConcurrency} and {@code clockRate}
     *                   the clock's own, each when set
     * @param paused     whether the clock holds its deliveries back ({@code POST /clocks/{clock}/pause})
     */
    record ClockJson(String name, long now, int size, int schedules, Long nextFireTime, Long oldestAge,
                     long createdAt,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Long deletesAt, String mode,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Double rate, String delivery,
                     RetryJson retry, @JsonInclude(JsonInclude.Include.NON_NULL) PushJson push, long dedupeWindow,
                     @JsonInclude(JsonInclude.Include.NON_NULL) DeliveryCountsJson deliveries,
                     @JsonInclude(JsonInclude.Include.NON_NULL) FlowJson flow,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Integer clockConcurrency,
                     @JsonInclude(JsonInclude.Include.NON_NULL) RateJson clockRate, boolean paused) {
    }

    /** A clock's per-key flow control as {@code PUT} takes it; each absent member is a limit that does not apply. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record FlowJson(Integer concurrency, RateJson rate, Integer burst) {

        static FlowJson of(FlowLimits flow) {
            return flow == null || flow.concurrency() == null && flow.rate() == null ? null
                    : new FlowJson(flow.concurrency(), RateJson.of(flow.rate()), flow.burst());
        }
    }

    /** A rate limit: {@code limit} deliveries per {@code period} ms. */
    record RateJson(long limit, long period) {

        static RateJson of(FlowRate rate) {
            return rate == null ? null : new RateJson(rate.limit(), rate.periodMillis());
        }
    }

    /** A push target as the API shows it: the secrets are write-only, so only their number is shown. */
    record PushJson(String url, long timeout, int concurrency, java.util.Map<String, String> headers,
                    int secretsCount) {

        static PushJson of(PushTarget push) {
            return push == null ? null : new PushJson(push.url(), push.timeoutMillis(), push.concurrency(),
                    push.headers(), push.secrets().size());
        }
    }

    /** An enum constant as the API writes it: {@code virtual}, {@code queue}, ... */
    static String lowerCase(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    /** A retry policy as {@code PUT} takes it: backoffs in milliseconds; {@code maxRetryDuration} shown when set. */
    record RetryJson(int maxAttempts, long initialBackoff, double multiplier, long maxBackoff, double jitter,
                     @JsonInclude(JsonInclude.Include.NON_DEFAULT) long maxRetryDuration) {

        static RetryJson of(RetryPolicy retry) {
            return new RetryJson(retry.maxAttempts(), retry.initialBackoffMillis(), retry.multiplier(),
                    retry.maxBackoffMillis(), retry.jitter(), retry.maxRetryDurationMillis());
        }
    }

    record ClockListJson(List<ClockJson> clocks) {
    }
}
