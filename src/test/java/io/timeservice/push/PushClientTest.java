package io.timeservice.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.timeservice.model.PushTarget;
import io.timeservice.model.PushTargetPolicy;
import org.apache.hc.core5.util.TimeValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PushClientTest {

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timers.shutdownNow();
    }

    @Test
    void aKeptAliveConnection_unusedLongerThanMaxIdle_isClosedByTheClient() throws Exception {
        try (KeepAliveTarget target = new KeepAliveTarget();
             PushClient client = new PushClient(new PushTargetPolicy(true, List.of(), InetAddress::getAllByName), 1,
                     10, timers, System::currentTimeMillis, PushMetrics.NONE, TimeValue.ofMilliseconds(200))) {
            PushOutcome outcome = client.post(new PushTarget(target.url(), 2_000, 1, Map.of(), List.of()), "c:1",
                    "{}".getBytes(StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS);

            assertThat(outcome.kind()).isEqualTo(PushOutcome.Kind.SUCCESS);
            // the target never closes: only the client's idle closing ends the connection
            assertThat(target.closedByClient.get(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** Answers one request with 204 and keeps the connection open; tells when the client closes it. */
    private static final class KeepAliveTarget implements AutoCloseable {

        final CompletableFuture<Boolean> closedByClient = new CompletableFuture<>();
        private final ServerSocket server;
        private final Thread thread;

        KeepAliveTarget() throws IOException {
            server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            thread = new Thread(this::serve, "keep-alive-target");
            thread.setDaemon(true);
            thread.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort() + "/hooks";
        }

        private void serve() {
            try (Socket socket = server.accept()) {
                InputStream in = socket.getInputStream();
                int length = contentLength(readHead(in));
                in.readNBytes(length);
                OutputStream out = socket.getOutputStream();
                out.write("HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                closedByClient.complete(in.read() == -1); // blocks until the client closes (or sends more)
            } catch (IOException failed) {
                closedByClient.completeExceptionally(failed);
            }
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int next = in.read();
                if (next < 0) {
                    throw new IOException("the request ended inside its head");
                }
                head.write(next);
            }
            return head.toString(StandardCharsets.US_ASCII);
        }

        private static int contentLength(String head) {
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                    return Integer.parseInt(line.substring("content-length:".length()).trim());
                }
            }
            return 0;
        }

        @Override
        public void close() throws IOException {
            server.close();
            thread.interrupt();
        }
    }
}
