package io.timeservice.web;

import io.timeservice.model.TimeRules;
import tools.jackson.databind.JsonNode;

/**
 * Reads a member that names a clock time ({@code at}), which JSON may send in two forms: an integer of Unix epoch
 * milliseconds, or an RFC 3339 date-time string ({@link TimeRules#clockTimeOf}). Anything else, a fraction or an integer
 * beyond a signed 64-bit one included, is refused as {@link TimeRules#invalidClockTime}.
 */
final class ClockTimeMember {

    private ClockTimeMember() {
    }

    /** The clock time {@code value} names, or null when the member is absent. */
    static Long read(String member, JsonNode value) {
        if (value == null) {
            return null;
        }
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        }
        if (value.isString()) {
            return TimeRules.clockTimeOf(value.asString(), member);
        }
        throw TimeRules.invalidClockTime(member, value.isNumber() ? "the number " + LoneSurrogates.abbreviate(
                value.toString(), 64) : value.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
    }
}
