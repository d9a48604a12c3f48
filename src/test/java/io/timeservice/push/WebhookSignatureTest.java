package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class WebhookSignatureTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String OTHER = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";

    @Test
    void sign_isVerifiedByTheSpecificationsAlgorithm_forEverySecret() throws Exception {
        byte[] body = "{\"clock\":\"c\",\"id\":\"t1\"}".getBytes(StandardCharsets.UTF_8);

        String header = WebhookSignature.sign(List.of(SECRET, OTHER), "c:1", 1_700_000_000L, body);

        assertThat(header.split(" ")).hasSize(2);
        assertThat(StandardWebhooks.verify(SECRET, "c:1", "1700000000", new String(body, StandardCharsets.UTF_8),
                header)).isTrue();
        assertThat(StandardWebhooks.verify(OTHER, "c:1", "1700000000", new String(body, StandardCharsets.UTF_8),
                header)).isTrue();
    }

    @Test
    void sign_onOneThread_withKeysInTurn_usesEachSignaturesOwnKey() throws Exception {
        // the thread's Mac is reused: a signature must never carry the previous one's key or content
        for (int i = 0; i < 4; i++) {
            String secret = i % 2 == 0 ? SECRET : OTHER;
            String body = "{\"n\":" + i + "}";
            String header = WebhookSignature.sign(List.of(secret), "c:" + i, i, body.getBytes(StandardCharsets.UTF_8));

            assertThat(StandardWebhooks.verify(secret, "c:" + i, Integer.toString(i), body, header)).isTrue();
            assertThat(StandardWebhooks.verify(i % 2 == 0 ? OTHER : SECRET, "c:" + i, Integer.toString(i), body,
                    header)).isFalse();
        }
    }

    @Test
    void sign_withoutSecrets_isNull() {
        assertThat(WebhookSignature.sign(List.of(), "c:1", 1, new byte[0])).isNull();
    }
}
