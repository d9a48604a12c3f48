package io.timeservice.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in for the service on a loopback port, for what the real one cannot be made to do on demand (answer 503,
 * show the headers a call sent): each request is passed to a script that answers it. Closed by {@link #close}.
 */
final class StubService implements AutoCloseable {

    /** A request as the stub got it; {@code target} is its path and query as sent. */
    record Request(String method, String path, String target, Headers headers, String body) {
    }

    /** An answer: its status, its body ({@code null}: none) and, for a body, its content type. */
    record Answer(int status, String contentType, String body) {

        static Answer json(int status, String body) {
            return new Answer(status, status >= 400 ? "application/problem+json" : "application/json", body);
        }
    }

    private final HttpServer server;

    private StubService(HttpServer server) {
        this.server = server;
    }

    /** A stub answering each request with what {@code script} makes of it. */
    static StubService answering(Function<Request, Answer> script) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                Answer answer = script.apply(new Request(exchange.getRequestMethod(),
                        exchange.getRequestURI().getPath(), exchange.getRequestURI().toString(),
                        exchange.getRequestHeaders(), body));
                if (answer.body() == null) {
                    exchange.sendResponseHeaders(answer.status(), -1);
                } else {
                    byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("Content-Type", answer.contentType());
                    exchange.sendResponseHeaders(answer.status(), bytes.length);
                    exchange.getResponseBody().write(bytes);
                }
                exchange.close();
            });
            server.start();
            return new StubService(server);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** A client of clock {@code name} on this stub. */
    ClockClient clock(String name) {
        return TimeServiceClient.connect(uri()).clock(name);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
