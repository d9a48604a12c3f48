package io.timeservice.web;

import java.net.URI;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.timeservice.model.FlowKeyState;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRate;
import io.timeservice.model.FlowRules;
import io.timeservice.store.FlowKeyStore;
import io.timeservice.web.ClockResourceController.RateJson;
import io.timeservice.web.JsonRequest.PutFlowKey;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Single keys of a clock under flow control (issue 44): a key's own limits ({@code PUT} sets or replaces them,
 * {@code GET}, {@code DELETE}) and the busiest keys ({@code ?busiest=N}), the place to look at single keys (the metrics
 * are per clock). Scopes as every clock path: {@code read} for {@code GET}, {@code write} for the rest.
 */
@RestController
class FlowKeyController {

    private final FlowKeyStore keys;

    FlowKeyController(FlowKeyStore keys) {
        this.keys = keys;
    }

    @PutMapping(path = "/clocks/{clock}/flow/keys/{key}", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<OverrideJson> put(@PathVariable String clock, @PathVariable String key,
                                     @RequestBody PutFlowKey body) {
        FlowOverride override = new FlowOverride(body.concurrency(),
                body.rate() == null ? null : new FlowRate(body.rate().limit(), body.rate().period()));
        OverrideJson json = OverrideJson.of(key, override);
        return keys.put(clock, key, override)
                ? ResponseEntity.created(URI.create("/clocks/" + clock + "/flow/keys/" + key)).body(json)
                : ResponseEntity.ok(json);
    }

    @GetMapping(path = "/clocks/{clock}/flow/keys/{key}", produces = MediaType.APPLICATION_JSON_VALUE)
    OverrideJson get(@PathVariable String clock, @PathVariable String key) {
        return OverrideJson.of(key, keys.get(clock, key));
    }

    @DeleteMapping(path = "/clocks/{clock}/flow/keys/{key}")
    ResponseEntity<Void> delete(@PathVariable String clock, @PathVariable String key) {
        keys.delete(clock, key);
        return ResponseEntity.noContent().build();
    }

    /** The {@code busiest} keys (default {@value FlowRules#DEFAULT_BUSIEST}, at most {@value FlowRules#MAX_BUSIEST}). */
    @GetMapping(path = "/clocks/{clock}/flow/keys", produces = MediaType.APPLICATION_JSON_VALUE)
    KeyListJson busiest(@PathVariable String clock, @RequestParam(required = false) String busiest) {
        int n = LimitParameter.parse("busiest", busiest, FlowRules.DEFAULT_BUSIEST, FlowRules.MAX_BUSIEST);
        return new KeyListJson(keys.busiest(clock, n).stream().map(KeyJson::of).toList());
    }

    /** A key's override as {@code PUT} takes it; an absent member is the clock's. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record OverrideJson(String key, Integer concurrency, RateJson rate) {

        static OverrideJson of(String key, FlowOverride override) {
            return new OverrideJson(key, override.concurrency(), RateJson.of(override.rate()));
        }
    }

    /**
     * One of the busiest keys: its deliveries, the limits that apply to it (absent: none), its tokens (with a rate)
     * and whether they are its override's.
     */
    record KeyJson(String key, int ready, int inFlight, int heldBack,
                   @JsonInclude(JsonInclude.Include.NON_NULL) Integer concurrency,
                   @JsonInclude(JsonInclude.Include.NON_NULL) RateJson rate,
                   @JsonInclude(JsonInclude.Include.NON_NULL) Long tokens, boolean overridden) {

        static KeyJson of(FlowKeyState state) {
            return new KeyJson(state.key(), state.ready(), state.inFlight(), state.heldBack(), state.concurrency(),
                    RateJson.of(state.rate()), state.tokens(), state.override() != null);
        }
    }

    record KeyListJson(List<KeyJson> keys) {
    }
}
