package io.timeservice.push;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The receiver of docs/PUSH.md, JDK only: it answers 204 to a push whose Standard Webhooks signature verifies and
 * whose timestamp is within five minutes of its own clock, 401 to anything else. Compiled and run by
 * {@code WebhookReceiverExampleTest}, so the documented snippet works.
 */
public final class WebhookReceiverExample {

    // docs/PUSH.md quotes from here ...
    static HttpServer start(int port, String secret) throws IOException {
        byte[] key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/timers", exchange -> {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes(); // verify the raw bytes, before parsing
            }
            boolean authentic = verify(exchange, body, key);
            if (authentic) {
                // handle the fired timer here (or queue it), idempotently: webhook-id repeats on retries
            }
            exchange.sendResponseHeaders(authentic ? 204 : 401, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    static boolean verify(HttpExchange exchange, byte[] body, byte[] key) {
        String id = exchange.getRequestHeaders().getFirst("webhook-id");
        String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
        String signatures = exchange.getRequestHeaders().getFirst("webhook-signature");
        if (id == null || timestamp == null || signatures == null || !timestamp.matches("\\d{1,12}")
                || Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(timestamp)) > 300) {
            return false;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            byte[] expected = mac.doFinal(body);
            for (String signature : signatures.split(" ")) { // one per secret while secrets rotate
                if (signature.startsWith("v1,") && MessageDigest.isEqual(expected,
                        Base64.getDecoder().decode(signature.substring(3)))) {
                    return true;
                }
            }
        } catch (IllegalArgumentException | java.security.GeneralSecurityException malformed) {
            return false;
        }
        return false;
    }
    // ... to here.

    private WebhookReceiverExample() {
    }
}
