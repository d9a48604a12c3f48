package io.timeservice.web;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;

/** Parses an optional integer query parameter ({@code dueBy}, {@code after}, {@code sequence}) strictly. */
final class IntegerParameter {

    private IntegerParameter() {
    }

    /**
     * A plain decimal integer from 0 to 2^63 - 1, or null when the parameter is absent.
     *
     * @throws ProblemException {@code invalid_request} naming the parameter
     */
    static Long parse(String name, String text) {
        if (text == null) {
            return null;
        }
        if (text.matches("\\d{1,19}")) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException tooLarge) {
                // falls through to the refusal
            }
        }
        throw new ProblemException(ErrorCode.INVALID_REQUEST, name + " must be an integer from 0 to "
                + Long.MAX_VALUE + ", got \"" + LoneSurrogates.abbreviate(text, 32) + "\"");
    }
}
