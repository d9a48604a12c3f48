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
 * Thread-safe: each thread signs with its own {@link Mac}, initialised with the key of each signature, because
 * {@code Mac.getInstance} looks the algorithm up in the providers every time (a push signs once per secret).
 */
public final class WebhookSignature {

    private static final String HMAC = "HmacSHA256";
    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance(HMAC);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", impossible);
        }
    });

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
        Mac mac = MACS.get();
        try {
            mac.init(new SecretKeySpec(key, HMAC)); // also resets whatever a failed signing left in it
        } catch (InvalidKeyException impossible) {
            throw new IllegalStateException("HmacSHA256 takes a key of any length", impossible);
        }
        mac.update(prefix);
        return mac.doFinal(body);
    }
}
