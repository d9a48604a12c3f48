package io.timeservice.web;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.Limits;
import io.timeservice.model.ProblemException;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.TimeRules;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.PropertyBindingException;

/**
 * Turns a failure to bind a request body into the refusal a client sees: the code of the member the failure names
 * ({@code delay} -> {@code invalid_delay}), or {@code invalid_request} for an unknown or missing member.
 */
final class BindingFailures {

    private record Rule(ErrorCode code, String expected) {
    }

    private static final String MILLISECONDS = "a JSON integer of milliseconds from 0 to "
            + RetryPolicy.MAX_BACKOFF_MILLIS;

    /** The rule of a member without one of its own, and of an array's item. */
    private static final Rule ANY_VALUE = new Rule(ErrorCode.INVALID_REQUEST, "valid");
    private static final Map<String, Rule> RULES = Map.ofEntries(
            Map.entry("id", new Rule(ErrorCode.INVALID_ID, "a JSON string")),
            Map.entry("delay", new Rule(ErrorCode.INVALID_DELAY, "a JSON integer from 0 to "
                    + Limits.MAX_DELAY)),
            Map.entry("at", new Rule(ErrorCode.INVALID_DELAY, TimeRules.CLOCK_TIME_FORM)),
            Map.entry("by", new Rule(ErrorCode.INVALID_ADVANCE, "a JSON integer from 0 to "
                    + Limits.MAX_DELAY)),
            Map.entry("to", new Rule(ErrorCode.INVALID_ADVANCE, "a JSON integer, not before now")),
            Map.entry("priority", new Rule(ErrorCode.INVALID_PRIORITY, "a JSON integer in the signed 32-bit range")),
            Map.entry("now", new Rule(ErrorCode.INVALID_REQUEST, "a JSON integer from 0 to "
                    + Limits.MAX_DELAY)),
            Map.entry("mode", new Rule(ErrorCode.INVALID_REQUEST, "\"virtual\" or \"system\"")),
            Map.entry("delivery", new Rule(ErrorCode.INVALID_REQUEST, "\"response\" or \"queue\"")),
            Map.entry("retry", new Rule(ErrorCode.INVALID_REQUEST, "a JSON object")),
            Map.entry("maxAttempts", new Rule(ErrorCode.INVALID_REQUEST, "a JSON integer from 1 to "
                    + RetryPolicy.MAX_ATTEMPTS)),
            Map.entry("initialBackoff", new Rule(ErrorCode.INVALID_REQUEST, MILLISECONDS)),
            Map.entry("maxBackoff", new Rule(ErrorCode.INVALID_REQUEST, MILLISECONDS)),
            Map.entry("multiplier", new Rule(ErrorCode.INVALID_REQUEST, "a JSON number from 1 to 10")),
            Map.entry("jitter", new Rule(ErrorCode.INVALID_REQUEST, "a JSON number from 0 to 1")),
            Map.entry("max", new Rule(ErrorCode.INVALID_LIMIT, "a JSON integer from 1 to "
                    + Limits.MAX_CLAIM)),
            Map.entry("lease", new Rule(ErrorCode.INVALID_REQUEST, "a JSON integer of milliseconds from "
                    + Limits.MIN_LEASE_MILLIS + " to " + Limits.MAX_LEASE_MILLIS)),
            Map.entry("wait", new Rule(ErrorCode.INVALID_REQUEST, "a JSON integer of milliseconds from 0 to "
                    + Limits.MAX_CLAIM_WAIT_MILLIS)),
            Map.entry("retryAfter", new Rule(ErrorCode.INVALID_REQUEST, MILLISECONDS)),
            Map.entry("claim", new Rule(ErrorCode.INVALID_REQUEST, "a JSON string")),
            Map.entry("cron", new Rule(ErrorCode.INVALID_SCHEDULE, "a JSON string of a cron expression")),
            Map.entry("every", new Rule(ErrorCode.INVALID_SCHEDULE, "a JSON integer of milliseconds from "
                    + Limits.MIN_EVERY_MILLIS)),
            Map.entry("zone", new Rule(ErrorCode.INVALID_SCHEDULE, "a JSON string naming an IANA time zone")),
            Map.entry("start", new Rule(ErrorCode.INVALID_SCHEDULE, "a JSON integer of clock milliseconds")),
            Map.entry("end", new Rule(ErrorCode.INVALID_SCHEDULE, "a JSON integer of clock milliseconds")),
            Map.entry("limit", new Rule(ErrorCode.INVALID_SCHEDULE, "a JSON integer of at least 1")),
            Map.entry("catchUp", new Rule(ErrorCode.INVALID_SCHEDULE, "\"all\", \"latest\" or \"none\"")),
            Map.entry("paused", new Rule(ErrorCode.INVALID_SCHEDULE, "true or false")));

    /** Rules of one request type where a member of the same name means another thing elsewhere. */
    private static final Map<Class<?>, Map<String, Rule>> RULES_OF = Map.of(JsonRequest.PatchClock.class,
            Map.of("paused", new Rule(ErrorCode.INVALID_REQUEST, "true or false")));

    private BindingFailures() {
    }

    /**
     * The refusal for {@code failure}, met while binding the JSON object {@code body}. A member inside a member
     * ({@code retry}'s) is named by its JSON pointer.
     */
    static ProblemException refusal(JacksonException failure, JsonNode body) {
        String at = pointer(failure.getPath());
        if (failure instanceof PropertyBindingException unknown) {
            String where = failure.getPath().size() > 1 ? " at " + at.substring(0, at.lastIndexOf('/')) : "";
            return StrictJsonConverter.invalidRequest("unknown member \"" + abbreviate(unknown.getPropertyName())
                    + "\"" + where + "; allowed: " + unknown.getKnownPropertyIds());
        }
        JsonNode value = at.isEmpty() ? null : body.at(at);
        if (value == null || value.isMissingNode()) {
            return StrictJsonConverter.invalidRequest(at.isEmpty()
                    ? "the body does not match the request: " + StrictJsonConverter.withoutInternals(
                            failure.getOriginalMessage())
                    : "member \"" + name(failure.getPath(), at) + "\" is required");
        }
        String member = failure.getPath().get(failure.getPath().size() - 1).getPropertyName();
        Rule rule = member == null ? ANY_VALUE // an item of an array: its place is named by index
                : ruleOf(failure.getPath().get(failure.getPath().size() - 1), member);
        return new ProblemException(rule.code(), name(failure.getPath(), at) + " must be " + rule.expected()
                + ", got " + describe(value));
    }

    /** The rule of {@code member}, as the request type it was bound into ({@code step}'s) has it, if it has its own. */
    private static Rule ruleOf(JacksonException.Reference step, String member) {
        Object from = step.from();
        Map<String, Rule> own = from == null ? null : RULES_OF.get(from instanceof Class<?> type ? type : from.getClass());
        Rule rule = own == null ? null : own.get(member);
        return rule != null ? rule : RULES.getOrDefault(member, ANY_VALUE);
    }

    /** The JSON pointer of the member a failure names, "" for the body itself. */
    private static String pointer(List<JacksonException.Reference> path) {
        StringBuilder pointer = new StringBuilder();
        for (JacksonException.Reference step : path) {
            String name = step.getPropertyName();
            pointer.append('/').append(name != null ? name.replace("~", "~0").replace("/", "~1")
                    : Integer.toString(step.getIndex()));
        }
        return pointer.toString();
    }

    /** A member of the body by its name, a deeper one by its pointer. */
    private static String name(List<JacksonException.Reference> path, String pointer) {
        return path.size() == 1 ? path.get(0).getPropertyName() : pointer;
    }

    private static String describe(JsonNode value) {
        if (value.isString()) {
            return "a string";
        }
        if (value.isNumber()) {
            return "the number " + abbreviate(value.toString());
        }
        return value.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    private static String abbreviate(String text) {
        return LoneSurrogates.abbreviate(text, 64);
    }
}
