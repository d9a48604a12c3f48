package io.timeservice.push;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The receiving side of the Standard Webhooks signature, written from the specification for the tests (not from the
 * service's code): the signed content is {@code id + "." + timestamp + "." + body}, the key is the base64 text after
 * {@code whsec_}, and the header holds space-separated {@code v1,<base64>} signatures, any of which may match.
 */
public final class StandardWebhooks {

    private StandardWebhooks() {
    }

    /** Whether any signature in {@code signatureHeader} is the one {@code secret} makes; compared in constant time. */
    public static boolean verify(String secret, String id, String timestamp, String body, String signatureHeader)
            throws Exception {
        byte[] key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        byte[] expected = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
        for (String signature : signatureHeader.split(" ")) {
            int comma = signature.indexOf(',');
            if (comma > 0 && signature.substring(0, comma).equals("v1")
                    && MessageDigest.isEqual(expected, Base64.getDecoder().decode(signature.substring(comma + 1)))) {
                return true;
            }
        }
        return false;
    }
}
