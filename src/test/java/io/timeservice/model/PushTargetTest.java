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
        assertThatThrownBy(make::run).isInstanceOfSatisfying(SchedulerException.class, refused -> {
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
