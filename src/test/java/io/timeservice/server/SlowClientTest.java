package io.timeservice.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Clients that stall mid-request are cut off by the connection timeout (1 s here) instead of holding a worker. The
 * sockets' own read timeout (10 s) bounds the test: a read that returns, with an answer or end of stream, proves the
 * server acted.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.tomcat.connection-timeout=1s", "server.tomcat.threads.max=4", "server.tomcat.threads.min-spare=1"})
class SlowClientTest {

    private static final int CLIENT_READ_TIMEOUT_MS = 10_000;

    @LocalServerPort
    int port;

    @Test
    void bodyThatStopsAfterAFewBytes_isAnsweredOrClosed_withinTheTimeout() throws IOException {
        try (Socket socket = stalledBody()) {
            assertAnsweredWith4xxOrClosed(socket);
        }
        assertThat(count()).isZero();   // nothing half-read was added
    }

    @Test
    void headersThatNeverEnd_areCutOff() throws IOException {
        try (Socket socket = open()) {
            send(socket, "GET /queue HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n");
            assertAnsweredWith4xxOrClosed(socket);
        }
    }

    @Test
    void moreStalledClientsThanWorkers_doNotKeepTheServiceFromAnswering() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 6; i++) {   // 4 workers
                stalled.add(stalledBody());
            }
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> queue = client.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/queue")).timeout(Duration.ofSeconds(15)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(queue.statusCode()).isEqualTo(200);
            for (Socket socket : stalled) {
                assertAnsweredWith4xxOrClosed(socket);
            }
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    private Socket stalledBody() throws IOException {
        Socket socket = open();
        send(socket, "POST /timers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 100\r\n\r\n{\"id\":\"sl");
        return socket;
    }

    private Socket open() throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(CLIENT_READ_TIMEOUT_MS);
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Reads until the server closes; fails if it neither answers nor closes within the client's read timeout. */
    private static void assertAnsweredWith4xxOrClosed(Socket socket) throws IOException {
        byte[] received;
        try (InputStream in = socket.getInputStream()) {
            received = in.readAllBytes();
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server neither answered nor closed within " + CLIENT_READ_TIMEOUT_MS
                    + " ms", e);
        } catch (SocketException reset) {
            return;   // closed by a reset: the worker is free
        }
        String answer = new String(received, StandardCharsets.ISO_8859_1);
        if (!answer.isEmpty()) {
            assertThat(answer).as(answer).matches("(?s)HTTP/1\\.1 4\\d\\d .*");
            assertThat(answer).as(answer).containsIgnoringCase("content-type: application/problem+json");
        }
    }

    private int count() {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/queue")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return Integer.parseInt(response.body().replaceAll(".*\"size\":(\\d+).*", "$1"));
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
