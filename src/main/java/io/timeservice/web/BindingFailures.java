package io.timeservice.web;

import java.util.Locale;
import java.util.Map;

import io.timeservice.core.ErrorCode;
import io.timeservice.core.SchedulerException;
import io.timeservice.core.TimerScheduler;
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

    private static final Map<String, Rule> RULES = Map.of(
            "id", new Rule(ErrorCode.INVALID_ID, "a JSON string"),
            "delay", new Rule(ErrorCode.INVALID_DELAY, "a JSON integer from 0 to " + TimerScheduler.MAX_DELAY),
            "by", new Rule(ErrorCode.INVALID_ADVANCE, "a JSON integer from 0 to " + TimerScheduler.MAX_DELAY),
            "to", new Rule(ErrorCode.INVALID_ADVANCE, "a JSON integer, not before now"),
            "priority", new Rule(ErrorCode.INVALID_PRIORITY, "a JSON integer in the signed 32-bit range"));

    private BindingFailures() {
    }

    /** The refusal for {@code failure}, met while binding the JSON object {@code body}. */
    static SchedulerException refusal(JacksonException failure, JsonNode body) {
        if (failure instanceof PropertyBindingException unknown) {
            return StrictJsonConverter.invalidRequest("unknown member \"" + abbreviate(unknown.getPropertyName())
                    + "\"; allowed: " + unknown.getKnownPropertyIds());
        }
        String member = failure.getPath().isEmpty() ? null : failure.getPath().get(0).getPropertyName();
        JsonNode value = member == null ? null : body.get(member);
        if (value == null) {
            return StrictJsonConverter.invalidRequest(member == null
                    ? "the body does not match the request: " + StrictJsonConverter.withoutInternals(
                            failure.getOriginalMessage())
                    : "member \"" + member + "\" is required");
        }
        Rule rule = RULES.getOrDefault(member, new Rule(ErrorCode.INVALID_REQUEST, "valid"));
        return new SchedulerException(rule.code(), member + " must be " + rule.expected() + ", got " + describe(value));
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
