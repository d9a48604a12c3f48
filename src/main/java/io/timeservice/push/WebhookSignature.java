package io.timeservice.push;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.timeservice.model.PushTarget;

/**
 * The {@code webhook-signature} header of the Standard Webhooks specification: for each secret,
 * {@code v1,<base64 of HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")>}, space-separated, so a receiver
 * accepts a request while it knows any one of the secrets (rotation lists two). A {@code whsec_} secret's key is the
 * base64 text after the prefix, decoded; any other secret's key is its UTF-8 bytes ({@link PushTarget#keyOf}).
 * Stateless and thread-safe.
 */
public final class WebhookSignature {

    private static final String HMAC = "HmacSHA256";

    private WebhookSignature() {
    }

    /** The header's value for {@code body} sent as {@code id} at {@code timestampSeconds}; null without secrets. */
    public static String sign(List<String> secrets, String id, long timestampSeconds, byte[] body) {
        if (secrets.isEmpty()) {
            return null;
        }
        byte[] prefix = (id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8);
        StringBuilder header = new StringBuilder();
        for (String secret : secrets) {
            if (header.length() > 0) {
                header.append(' ');
            }
            header.append("v1,").append(Base64.getEncoder().encodeToString(hmac(PushTarget.keyOf(secret), prefix,
                    body)));
        }
        return header.toString();
    }

    private static byte[] hmac(byte[] key, byte[] prefix, byte[] body) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            mac.update(prefix);
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException impossible) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", impossible);
        }
    }
}
