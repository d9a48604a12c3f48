package io.timeservice.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import com.sun.net.httpserver.HttpServer;

/**
 * A stub of the service on a loopback port for the wire-format tests: it answers scripted statuses and bodies in
 * order (a 4xx as problem+json) and records each request as {@code "METHOD /path?query body"}.
 */
final class ScriptedService implements AutoCloseable {

    private final HttpServer server;
    private final Deque<String[]> answers = new ArrayDeque<>(); // status, body
    private final List<String> requests = new ArrayList<>();

    ScriptedService() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            String[] answer = answers.poll();
            byte[] bytes = answer[1].getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", answer[0].startsWith("4")
                    ? "application/problem+json" : "application/json");
            exchange.sendResponseHeaders(Integer.parseInt(answer[0]), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        });
        server.start();
    }

    /** The next request is answered {@code status} with {@code body} (empty: none). */
    void answer(int status, String body) {
        answers.add(new String[] {Integer.toString(status), body});
    }

    /** The requests so far, in order. */
    List<String> requests() {
        return requests;
    }

    /** A client of this stub. */
    TimeServiceClient client() {
        return TimeServiceClient.connect(URI.create("http://127.0.0.1:" + server.getAddress().getPort()));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
