package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

class QStashSignatureTest {

    @Test
    void sign_isAnHs256JwtWithQStashClaimsAndTheBodysHash() throws Exception {
        byte[] body = "{\"hello\":\"world\"}".getBytes(StandardCharsets.UTF_8);
        String jwt = QStashSignature.sign("sig_current", "http://127.0.0.1:9/hook", body, 1_767_225_600L);

        String[] parts = jwt.split("\\.");
        assertThat(parts).hasSize(3);
        assertThat(decode(parts[0])).isEqualTo("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec("sig_current".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = Base64.getUrlEncoder().withoutPadding().encodeToString(
                mac.doFinal((parts[0] + "." + parts[1]).getBytes(StandardCharsets.UTF_8)));
        assertThat(parts[2]).isEqualTo(expected);
        String hash = Base64.getUrlEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(body));
        assertThat(decode(parts[1]))
                .startsWith("{\"iss\":\"Upstash\",\"sub\":\"http://127.0.0.1:9/hook\",\"exp\":1767225900,"
                        + "\"nbf\":1767225600,\"iat\":1767225600,\"jti\":\"jwt_")
                .endsWith(",\"body\":\"" + hash + "\"}");
    }

    @Test
    void sign_givesEachSignatureItsOwnJti() {
        byte[] body = new byte[0];
        assertThat(QStashSignature.sign("k", "http://127.0.0.1:9/", body, 1))
                .isNotEqualTo(QStashSignature.sign("k", "http://127.0.0.1:9/", body, 1));
    }

    private static String decode(String part) {
        return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
    }
}
