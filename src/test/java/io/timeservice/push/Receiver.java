package io.timeservice.push;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import com.sun.net.httpserver.HttpServer;

/**
 * A push target for tests: the JDK's HTTP server on 127.0.0.1 (a free port), answering each request as
 * {@link #answer} says and recording what came ({@link #next}), and the most requests it ever held at once.
 */
public final class Receiver implements AutoCloseable {

    /** One request as received. */
    public record Request(String path, Map<String, List<String>> headers, String body, long receivedNanos) {

        public String header(String name) {
            for (Map.Entry<String, List<String>> header : headers.entrySet()) {
                if (header.getKey().equalsIgnoreCase(name)) {
                    return header.getValue().get(0);
                }
            }
            return null;
        }
    }

    /**
     * What to answer: a status, headers, optionally a wait before answering (to hold a request open), and a body of
     * {@code bodyBytes} bytes.
     */
    public record Answer(int status, Map<String, String> headers, Runnable before, int bodyBytes) {

        public Answer(int status, Map<String, String> headers, Runnable before) {
            this(status, headers, before, 0);
        }

        public static Answer status(int status) {
            return new Answer(status, Map.of(), () -> { });
        }

        /** 204, held open until {@code release} is counted down (or the answering thread is interrupted). */
        public static Answer heldUntil(java.util.concurrent.CountDownLatch release) {
            return new Answer(204, Map.of(), () -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(64);
    private final BlockingQueue<Request> received = new LinkedBlockingQueue<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger mostOpen = new AtomicInteger();
    private volatile Function<Request, Answer> answer = request -> Answer.status(204);

    public Receiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            int now = open.incrementAndGet();
            mostOpen.accumulateAndGet(now, Math::max);
            try (exchange) {
                byte[] body;
                try (InputStream in = exchange.getRequestBody()) {
                    body = in.readAllBytes();
                }
                Request request = new Request(exchange.getRequestURI().getPath(), Map.copyOf(exchange
                        .getRequestHeaders()), new String(body, StandardCharsets.UTF_8), System.nanoTime());
                Answer reply = answer.apply(request);
                received.add(request);
                reply.before().run();
                reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
                exchange.sendResponseHeaders(reply.status(), reply.bodyBytes() == 0 ? -1 : reply.bodyBytes());
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(new byte[reply.bodyBytes()]);
                    out.flush();
                } catch (IOException closedByTheClient) {
                    // a client that read enough of a long answer closes the connection
                }
            } finally {
                open.decrementAndGet();
            }
        });
        server.start();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public void answer(Function<Request, Answer> answer) {
        this.answer = answer;
    }

    /** The next request received, waiting up to 20 s for it; fails when none comes. */
    public Request next() throws InterruptedException {
        Request request = received.poll(20, TimeUnit.SECONDS);
        if (request == null) {
            throw new AssertionError("no push arrived within 20 s");
        }
        return request;
    }

    /** A request received within {@code millis}, or null: for "nothing more came" after the service settled. */
    public Request nextWithin(long millis) throws InterruptedException {
        return received.poll(millis, TimeUnit.MILLISECONDS);
    }

    public int mostOpen() {
        return mostOpen.get();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
