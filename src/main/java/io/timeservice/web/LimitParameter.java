package io.timeservice.web;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;

/** Parses a {@code limit} query parameter strictly: a plain decimal integer in [1, max]. */
final class LimitParameter {

    private LimitParameter() {
    }

    static int parse(String text, int defaultLimit, int max) {
        return parse("limit", text, defaultLimit, max);
    }

    /** As {@link #parse(String, int, int)}, for the parameter {@code name} (a schedule's {@code next?count}). */
    static int parse(String name, String text, int defaultLimit, int max) {
        if (text == null) {
            return defaultLimit;
        }
        if (!text.matches("\\d{1,7}")) {
            throw invalid(name, text, max);
        }
        int limit = Integer.parseInt(text);
        if (limit < 1 || limit > max) {
            throw invalid(name, text, max);
        }
        return limit;
    }

    private static ProblemException invalid(String name, String text, int max) {
        String shown = text.length() <= 32 ? text : text.substring(0, 32) + "...";
        return new ProblemException(ErrorCode.INVALID_LIMIT, name + " must be an integer from 1 to " + max
                + ", got \"" + shown + "\"");
    }
}
