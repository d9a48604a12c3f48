package io.timeservice.push;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Upstash-Signature} of a QStash delivery (issue 47), as QStash signs: a JWT (HS256, keyed by the UTF-8 bytes
 * of the current signing key) whose claims are {@code iss} "Upstash", {@code sub} the destination URL, {@code exp}
 * five minutes after {@code iat}, {@code nbf} and {@code iat} the wall clock's second, a random {@code jti}, and
 * {@code body}, the base64url SHA-256 of the request body (with padding, as the SDK's {@code Receiver} compares it).
 * Stateless and thread-safe.
 */
public final class QStashSignature {

    static final long LIFETIME_SECONDS = 300;
    private static final String HEADER = base64Url("{\"alg\":\"HS256\",\"typ\":\"JWT\"}"
            .getBytes(StandardCharsets.UTF_8));

    private QStashSignature() {
    }

    /** The JWT for {@code body} sent to {@code url} at {@code nowSeconds}, signed with {@code key}. */
    public static String sign(String key, String url, byte[] body, long nowSeconds) {
        StringBuilder claims = new StringBuilder(256).append("{\"iss\":\"Upstash\",\"sub\":");
        PushBody.quote(url, claims);
        claims.append(",\"exp\":").append(nowSeconds + LIFETIME_SECONDS)
                .append(",\"nbf\":").append(nowSeconds)
                .append(",\"iat\":").append(nowSeconds)
                .append(",\"jti\":\"jwt_").append(UUID.randomUUID().toString().replace("-", "")).append('"')
                .append(",\"body\":\"").append(Base64.getUrlEncoder().encodeToString(sha256(body))).append("\"}");
        String signed = HEADER + "." + base64Url(claims.toString().getBytes(StandardCharsets.UTF_8));
        return signed + "." + base64Url(hmac(key, signed));
    }

    private static String base64Url(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static byte[] sha256(byte[] body) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static byte[] hmac(String key, String signed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(signed.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }
}
