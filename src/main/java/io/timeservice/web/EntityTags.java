package io.timeservice.web;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.timeservice.model.Precondition;
import io.timeservice.model.Revision;
import io.timeservice.model.Timer;

/**
 * Strong entity tags {@code "<sequence>-<version>"}. The sequence makes a tag name one generation of an id, so a
 * tag taken before an id was cancelled and reused can never match the new timer.
 */
final class EntityTags {

    /**
     * Canonical decimals only, as {@link #of} writes them: {@code "01-1"} is not {@code "1-1"} (tags compare as
     * strings, RFC 9110 8.8.3.2), so a leading zero names no revision.
     */
    private static final Pattern STRONG_TAG = Pattern.compile("\"(0|[1-9]\\d{0,18})-(0|[1-9]\\d{0,18})\"");

    private EntityTags() {
    }

    static String of(Timer timer) {
        return "\"" + timer.sequence() + "-" + timer.version() + "\"";
    }

    /**
     * Turns an If-Match header into a precondition: {@link Precondition#NONE} (unconditional) when absent, any
     * revision for {@code *}, else the revisions named by the listed strong tags. Weak or malformed tags name no
     * revision (If-Match uses the strong comparison), so a header of only such tags fails with 412, as RFC 9110 asks.
     */
    static Precondition precondition(String ifMatch) {
        if (ifMatch == null) {
            return Precondition.NONE;
        }
        if (isAnyRevision(ifMatch)) {
            return revision -> true;
        }
        Set<Revision> named = new HashSet<>();
        for (String candidate : ifMatch.split(",")) {
            Matcher matcher = STRONG_TAG.matcher(candidate.trim());
            if (matcher.matches()) {
                try {
                    named.add(new Revision(Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2))));
                } catch (NumberFormatException tooLarge) {
                    // names no revision that can exist
                }
            }
        }
        return named::contains;
    }

    /**
     * {@code If-Match: *}: true only while the timer exists (RFC 9110 13.1.1), so on a missing timer the
     * precondition fails (412) instead of the request reporting the timer as not found.
     */
    static boolean isAnyRevision(String ifMatch) {
        return ifMatch != null && ifMatch.trim().equals("*");
    }
}
