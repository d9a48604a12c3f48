package io.timeservice.security;

import java.util.function.Predicate;

/**
 * One of Spring Security's firewall checks on header and parameter names and values, answered without its regular
 * expression for the usual case: a string of printable ASCII characters (U+0020 to U+007E), every one of which the
 * firewall's patterns accept (assigned, not a control character). Any other string goes to the firewall's own
 * predicate, so the answers are exactly the firewall's; only their cost changes (the patterns ran several times per
 * request: docs/BENCHMARKS.md, issue 17).
 */
final class AsciiFirstPredicate implements Predicate<String> {

    private final Predicate<String> exact;

    AsciiFirstPredicate(Predicate<String> exact) {
        this.exact = exact;
    }

    @Override
    public boolean test(String text) {
        return isPrintableAscii(text) || exact.test(text);
    }

    static boolean isPrintableAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                return false;
            }
        }
        return true;
    }
}
