package io.timeservice.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a push target may hold; every refusal is invalid_request naming the member. */
class PushTargetTest {

    private static void assertRefused(Runnable make, String mentions) {
        assertThatThrownBy(make::run).isInstanceOfSatisfying(ProblemException.class, refused -> {
            assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
            assertThat(refused.getMessage()).contains(mentions);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ftp://example.com/", "file:///etc/passwd", "example.com/hook", "http:///nohost",
        "https://user:pw@example.com/", "https://example.com/#frag", "http://exa mple.com/"})
    void aUrlThatIsNotAnAbsoluteHttpUrlWithAHost_isRefused(String url) {
        assertRefused(() -> new PushTarget(url, 1_000, 1, Map.of(), List.of()), "push.url");
    }

    /** Issue 41 item 11: no port beyond 65535 (or 0), which no connection can use. */
    @ParameterizedTest
    @ValueSource(strings = {"http://a.example:65536/", "http://a.example:70000/", "http://a.example:0/",
        "http://127.0.0.1:99999999/"})
    void aPortOutOf1To65535_isRefused(String url) {
        assertRefused(() -> new PushTarget(url, 1_000, 1, Map.of(), List.of()), "port");
    }

    @Test
    void thePorts1And65535_andNone_areTaken() {
        assertThat(new PushTarget("http://a.example:1/", 1_000, 1, Map.of(), List.of()).uri().getPort())
                .isEqualTo(1);
        assertThat(new PushTarget("http://a.example:65535/", 1_000, 1, Map.of(), List.of()).uri().getPort())
                .isEqualTo(65_535);
        assertThat(new PushTarget("http://a.example/", 1_000, 1, Map.of(), List.of()).uri().getPort())
                .as("no port: the scheme's").isEqualTo(-1);
    }

    /** Issue 41 item 11: 0177.0.0.1 is loopback to most tools and 177.0.0.1 to Java: no such host is taken. */
    @ParameterizedTest
    @ValueSource(strings = {"http://0177.0.0.1/", "http://2130706433/", "http://127.000.0.1/", "http://0.0.0.0177/",
        "http://017700000001/", "http://1.2.3.256/", "http://a.0177/", "http://1.2.3/"})
    void anIpv4HostInAnOctalHexOrShortForm_isRefused(String url) {
        assertRefused(() -> new PushTarget(url, 1_000, 1, Map.of(), List.of()), "push.url");
    }

    @Test
    void aDottedDecimalIpv4Host_andNamesWithDigits_areTaken() {
        assertThat(new PushTarget("http://127.0.0.1:8080/", 1_000, 1, Map.of(), List.of()).host())
                .isEqualTo("127.0.0.1");
        // the policy (push.PushTargetPolicy) judges the address itself; the target only reads it
        assertThat(new PushTarget("http://0.0.0.0/", 1_000, 1, Map.of(), List.of()).host()).isEqualTo("0.0.0.0");
        assertThat(new PushTarget("http://10.255.0.9/", 1_000, 1, Map.of(), List.of()).host())
                .isEqualTo("10.255.0.9");
        assertThat(new PushTarget("http://1password.example/", 1_000, 1, Map.of(), List.of()).host())
                .isEqualTo("1password.example");
        assertThat(new PushTarget("http://[::1]:80/", 1_000, 1, Map.of(), List.of()).host()).isEqualTo("::1");
    }

    /** Issue 41 item 11: characters beyond ASCII are sent percent-encoded (RFC 3986), never as Latin-1 or '?'. */
    @Test
    void aUrlBeyondAscii_isKeptPercentEncodedAsUtf8() {
        assertThat(new PushTarget("https://a.example/h\u00fcks?t=\u00e9&e=\uD83D\uDE00", 1_000, 1, Map.of(), List.of())
                .url()).isEqualTo("https://a.example/h%C3%BCks?t=%C3%A9&e=%F0%9F%98%80");
        assertThat(new PushTarget("https://a.example/h%C3%BCks", 1_000, 1, Map.of(), List.of()).url())
                .isEqualTo("https://a.example/h%C3%BCks");
        assertRefused(() -> new PushTarget("https://a.example/" + "\u00fc".repeat(400), 1_000, 1, Map.of(), List.of()),
                "percent-encoded");
        assertRefused(() -> new PushTarget("https://b\u00fccher.example/", 1_000, 1, Map.of(), List.of()),
                "push.url");
    }

    /** Issue 41 item 11: a null among the secrets is a refusal, not a NullPointerException. */
    @Test
    void aNullSecret_isRefused() {
        assertRefused(() -> new PushTarget("https://a.example/", 1_000, 1, Map.of(),
                java.util.Arrays.asList("whsec_AQID", null)), "push.secrets");
    }

    @Test
    void theTimeoutAndConcurrency_haveTheirRanges() {
        new PushTarget("https://a.example/", 100, 1, Map.of(), List.of());
        new PushTarget("https://a.example/", 60_000, 1_000, Map.of(), List.of());
        assertRefused(() -> new PushTarget("https://a.example/", 99, 1, Map.of(), List.of()), "push.timeout");
        assertRefused(() -> new PushTarget("https://a.example/", 60_001, 1, Map.of(), List.of()), "push.timeout");
        assertRefused(() -> new PushTarget("https://a.example/", 1_000, 0, Map.of(), List.of()), "push.concurrency");
        assertRefused(() -> new PushTarget("https://a.example/", 1_000, 1_001, Map.of(), List.of()),
                "push.concurrency");
    }

    @ParameterizedTest
    @ValueSource(strings = {"webhook-id", "Webhook-Signature", "Host", "content-length", "Content-Type",
        "Transfer-Encoding", "Connection", "bad name", "bad:name", ""})
    void aReservedOrMalformedHeaderName_isRefused(String name) {
        assertRefused(() -> new PushTarget("https://a.example/", 1_000, 1, Map.of(name, "v"), List.of()),
                "push.headers");
    }

    @Test
    void aHeaderValueWithALineBreak_isRefused() {
        assertRefused(() -> new PushTarget("https://a.example/", 1_000, 1, Map.of("X-A", "a\r\nX-B: b"), List.of()),
                "push.headers");
    }

    @Test
    void secrets_areBoundedAndAWhsecSecretMustBeBase64() {
        assertRefused(() -> new PushTarget("https://a.example/", 1_000, 1, Map.of(), List.of("whsec_not base64!")),
                "base64");
        assertRefused(() -> new PushTarget("https://a.example/", 1_000, 1, Map.of(), List.of("")), "push.secrets");
        assertRefused(() -> new PushTarget("https://a.example/", 1_000, 1, Map.of(),
                java.util.Collections.nCopies(9, "s")), "push.secrets");
        assertThat(PushTarget.keyOf("whsec_AQID")).containsExactly(1, 2, 3);
        assertThat(PushTarget.keyOf("plain")).containsExactly('p', 'l', 'a', 'i', 'n');
    }

    @Test
    void theTextForm_neverShowsTheSecrets() {
        PushTarget target = new PushTarget("https://a.example/", 1_000, 1, Map.of(), List.of("whsec_c2VjcmV0"));
        assertThat(target.toString()).doesNotContain("whsec_c2VjcmV0").contains("1 secrets");
    }

    @Test
    void aPushClockNeedsATarget_andOnlyAPushClockHasOne() {
        PushTarget target = new PushTarget("https://a.example/", 1_000, 1, Map.of(), List.of());
        assertRefused(() -> new ClockSettings(ClockSettings.Mode.SYSTEM, ClockSettings.DeliveryMode.PUSH,
                RetryPolicy.DEFAULT, null, null), "push target");
        assertRefused(() -> new ClockSettings(ClockSettings.Mode.SYSTEM, ClockSettings.DeliveryMode.QUEUE,
                RetryPolicy.DEFAULT, null, target), "push is only");
        assertThat(ClockSettings.of(null, null, null, null, target).delivery())
                .isEqualTo(ClockSettings.DeliveryMode.PUSH);
        assertThat(ClockSettings.of(ClockSettings.Mode.SYSTEM, null, null, null, target).queues()).isTrue();
    }
}
