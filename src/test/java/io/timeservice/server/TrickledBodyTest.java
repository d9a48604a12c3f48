package io.timeservice.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A client that sends its body one byte at a time, each byte well within Tomcat's per-read timeout, is still cut off
 * once the whole body has taken longer than {@code timeservice.limits.body-read-timeout} (2 s here).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.tomcat.connection-timeout=5s", "timeservice.limits.body-read-timeout=2s"})
class TrickledBodyTest {

    @LocalServerPort
    int port;

    @Test
    void bodyTrickledByteByByte_isRefusedOnceItsDeadlinePasses() throws Exception {
        byte[] body = "{\"id\":\"trickle\",\"delay\":1}".repeat(20).getBytes(StandardCharsets.US_ASCII);
        ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /timers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            int[] sent = {0};
            // the client's pace, not synchronisation: one byte every 200 ms would take over 100 s for this body
            pacer.scheduleAtFixedRate(() -> {
                try {
                    if (sent[0] < body.length) {
                        out.write(body[sent[0]++]);
                        out.flush();
                    }
                } catch (IOException closedByServer) {
                    throw new IllegalStateException(closedByServer);
                }
            }, 0, 200, TimeUnit.MILLISECONDS);

            String answer = readAnswer(socket.getInputStream());

            assertThat(answer).startsWith("HTTP/1.1 400").contains("application/problem+json")
                    .contains("\"code\":\"invalid_request\"").contains("to arrive");
            assertThat(sent[0]).as("bytes sent before the refusal").isLessThan(body.length);
        } finally {
            pacer.shutdownNow();
        }
    }

    private static String readAnswer(InputStream in) throws IOException {
        StringBuilder answer = new StringBuilder();
        byte[] buffer = new byte[4096];
        for (int read = in.read(buffer); read > 0; read = in.read(buffer)) {
            answer.append(new String(buffer, 0, read, StandardCharsets.ISO_8859_1));
            if (answer.indexOf("\r\n\r\n") >= 0 && answer.indexOf("}") > answer.indexOf("\r\n\r\n")) {
                break;
            }
        }
        return answer.toString();
    }
}
