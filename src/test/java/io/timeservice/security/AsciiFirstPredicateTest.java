package io.timeservice.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/** The firewall's checks answer exactly as Spring Security's own, with or without the ASCII shortcut. */
class AsciiFirstPredicateTest {

    private static final List<Predicate<String>> FIREWALL_CHECKS = List.of(StrictHttpFirewall.ALLOWED_HEADER_NAMES,
            StrictHttpFirewall.ALLOWED_HEADER_VALUES, StrictHttpFirewall.ALLOWED_PARAMETER_NAMES,
            StrictHttpFirewall.ALLOWED_PARAMETER_VALUES);

    @Test
    void everyAnswer_isTheFirewallsOwn_forRandomStrings() {
        Random random = new Random(20261201);
        // characters around the shortcut's edges and the patterns' classes: controls, tab, DEL, C1 controls,
        // Latin-1, unassigned code points, lone and paired surrogates
        char[] alphabet = {'a', 'Z', '0', ' ', '~', '\t', '\n', '\r', '\0', 0x1F, 0x7F, 0x80, 0x85, 0x9F, 0xA0, 0xE9,
                0x0378, 0xFFFF, 0xD800, 0xDC00, 0xD83D, 0xDE00, 0x2028, 0x200B};
        int disagreements = 0;
        int refused = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(6);
            for (int j = 0; j < length; j++) {
                text.append(random.nextInt(3) == 0 ? (char) (0x20 + random.nextInt(0x5F))
                        : alphabet[random.nextInt(alphabet.length)]);
            }
            for (Predicate<String> exact : FIREWALL_CHECKS) {
                boolean expected = exact.test(text.toString());
                if (new AsciiFirstPredicate(exact).test(text.toString()) != expected) {
                    disagreements++;
                }
                if (!expected) {
                    refused++;
                }
            }
        }
        assertThat(disagreements).isZero();
        assertThat(refused).as("the strings must include some the firewall refuses").isPositive();
    }

    @Test
    void printableAscii_isAnsweredWithoutTheFirewallsPattern() {
        Predicate<String> refusesEverything = text -> false;
        AsciiFirstPredicate predicate = new AsciiFirstPredicate(refusesEverything);
        assertThat(predicate.test("application/json; charset=utf-8")).isTrue();
        assertThat(predicate.test("")).isTrue();
        assertThat(predicate.test("tab\there")).isFalse();
        assertThat(predicate.test("caf\u00e9")).isFalse();
        assertThat(predicate.test("del\u007f")).isFalse();
    }
}
