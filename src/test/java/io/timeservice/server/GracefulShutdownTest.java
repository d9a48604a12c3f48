package io.timeservice.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.timeservice.TimeServiceApplication;
import org.apache.catalina.Container;
import org.apache.catalina.core.StandardWrapper;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A request in flight when shutdown begins still completes. Deterministic without sleeping: the request is held
 * open by sending only half its body, the test waits (bounded) until the servlet is busy with it, starts the shutdown,
 * waits (bounded) until the listener refuses new connections, and only then sends the rest of the body.
 */
class GracefulShutdownTest {

    /** A Spring context's requests and shutdown on a loaded machine (load average 20 on 2 cores) can take seconds. */
    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void requestInFlight_whenShutdownStarts_completesWith201() throws Exception {
        ConfigurableApplicationContext app = new SpringApplicationBuilder(TimeServiceApplication.class)
                .run("--server.port=0", "--spring.jmx.enabled=false");
        CompletableFuture<Void> closing = null;
        try {
            TomcatWebServer server = (TomcatWebServer) ((WebServerApplicationContext) app).getWebServer();
            int port = server.getPort();
            String body = "{\"id\":\"in-flight\",\"delay\":5}";
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(20_000);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /timers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length() + "\r\n\r\n" + body.substring(0, 10))
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                // what Boot's graceful shutdown itself waits for: a servlet allocated to a request
                awaitBounded("the request inside the servlet", () -> requestsInServlets(server) >= 1);

                closing = CompletableFuture.runAsync(app::close);
                awaitBounded("the listener refusing connections", () -> refusesConnections(port));
                assertThat(closing).isNotDone();   // still waiting for our request

                out.write(body.substring(10).getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String answer = readStatusLine(socket.getInputStream());
                assertThat(answer).startsWith("HTTP/1.1 201");
            }
            closing.get(30, TimeUnit.SECONDS);
            assertThat(app.isActive()).isFalse();
        } finally {
            if (closing == null) {
                app.close();
            }
        }
    }

    @Test
    void aLongPollWaitingWhenShutdownStarts_answersAtOnce_insteadOfBeingCutOff() throws Exception {
        ConfigurableApplicationContext app = new SpringApplicationBuilder(TimeServiceApplication.class)
                .run("--server.port=0", "--spring.jmx.enabled=false", "--timeservice.durability=none");
        CompletableFuture<Void> closing = null;
        try {
            TomcatWebServer server = (TomcatWebServer) ((WebServerApplicationContext) app).getWebServer();
            int port = server.getPort();
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(25_000);
                OutputStream out = socket.getOutputStream();
                String clock = "{\"delivery\":\"queue\"}";
                out.write(("PUT /clocks/polled HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + clock.length() + "\r\n\r\n" + clock).getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                assertThat(readStatusLine(in)).startsWith("HTTP/1.1 201");
                skipResponse(in);
                // a long poll of 30 s, longer than the graceful shutdown's own limit
                String claim = "{\"max\":1,\"wait\":30000}";
                out.write(("POST /clocks/polled/deliveries/claim HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + claim.length() + "\r\n\r\n" + claim)
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                awaitBounded("the long poll inside the servlet", () -> requestsInServlets(server) >= 1);

                closing = CompletableFuture.runAsync(app::close);
                assertThat(readStatusLine(in)).startsWith("HTTP/1.1 200");
                assertThat(readBody(in)).isEqualTo("{\"deliveries\":[]}");
            }
            closing.get(30, TimeUnit.SECONDS);
            assertThat(app.isActive()).isFalse();
        } finally {
            if (closing == null) {
                app.close();
            }
        }
    }

    /** Reads the headers and the body of a response with a Content-Length. */
    private static String readBody(InputStream in) throws IOException {
        int length = 0;
        for (String header = readStatusLine(in); !header.isEmpty(); header = readStatusLine(in)) {
            if (header.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(header.substring("content-length:".length()).trim());
            }
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private static void skipResponse(InputStream in) throws IOException {
        readBody(in);
    }

    private static int requestsInServlets(TomcatWebServer server) {
        int allocated = 0;
        for (Container context : server.getTomcat().getHost().findChildren()) {
            for (Container wrapper : context.findChildren()) {
                allocated += ((StandardWrapper) wrapper).getCountAllocated();
            }
        }
        return allocated;
    }

    private static boolean refusesConnections(int port) {
        try (Socket probe = new Socket("127.0.0.1", port)) {
            return false;
        } catch (ConnectException refused) {
            return true;
        } catch (IOException other) {
            return false;
        }
    }

    /** Polls a condition until it holds, failing after a generous bound. */
    private static void awaitBounded(String what, BooleanSupplier condition) {
        await(what).atMost(BOUND).pollInterval(Duration.ofMillis(5)).until(condition::getAsBoolean);
    }

    private static String readStatusLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        return line.toString().trim();
    }
}
