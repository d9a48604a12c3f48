package io.timeservice.push;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A push target that attacks the client, on 127.0.0.1 (a free port): it reads each request, then answers as its
 * {@link Mode} says, never finishing an answer. One thread runs every connection (a selector), so what it counts is
 * decided in one order: when a request has been read, every other connection is looked at first (a closed one reads
 * end-of-stream or a reset at once on loopback), then the open requests are counted ({@link #mostOpen}).
 *
 * <p>Bounded: each connection ends after {@code maxBytes} sent or {@code maxMillis} open, closed by the target itself
 * ({@link #closedByTarget}); a test that sees one has found a client that never closed.
 */
final class HostileTarget implements AutoCloseable {

    /** How the target answers after reading a request. */
    enum Mode {
        /** {@code HTTP/1.1 200 OK}, then one header line that never ends, as fast as the client reads. */
        ENDLESS_HEADER_LINE,
        /** {@code HTTP/1.1 200 OK}, then short header lines without end, as fast as the client reads. */
        ENDLESS_HEADER_LINES,
        /** {@code HTTP/1.1 102 Processing} again and again, one every {@code everyMillis}. */
        TRICKLE_102,
        /** {@code HTTP/1.1 200 OK}, then one byte of a header line every {@code everyMillis}. */
        TRICKLE_HEADER,
        /** Nothing: the request is read and never answered. */
        SILENT
    }

    private static final byte[] STATUS = "HTTP/1.1 200 OK\r\nX-Endless: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PROCESSING = "HTTP/1.1 102 Processing\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Mode mode;
    private final long everyNanos;
    private final long maxBytes;
    private final long maxNanos;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final Thread loop;
    private final List<Connection> connections = new ArrayList<>();
    private final AtomicInteger mostOpen = new AtomicInteger();
    private final AtomicLong mostSent = new AtomicLong();
    private final AtomicInteger closedByTarget = new AtomicInteger();
    /** One permit per connection the client closed (its request read or not: a loaded machine may lose that race). */
    private final Semaphore closedByClient = new Semaphore(0);
    private volatile boolean stopped;

    HostileTarget(Mode mode, long everyMillis, long maxBytes, long maxMillis) throws IOException {
        this.mode = mode;
        this.everyNanos = TimeUnit.MILLISECONDS.toNanos(everyMillis);
        this.maxBytes = maxBytes;
        this.maxNanos = TimeUnit.MILLISECONDS.toNanos(maxMillis);
        selector = Selector.open();
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        loop = new Thread(this::run, "hostile-target-" + mode.name().toLowerCase(Locale.ROOT));
        loop.setDaemon(true);
        loop.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.socket().getLocalPort() + "/hooks";
    }

    /** The most requests read and not yet closed by the client at once. */
    int mostOpen() {
        return mostOpen.get();
    }

    /** The most bytes one connection managed to send. */
    long mostSent() {
        return mostSent.get();
    }

    /** Connections the target closed itself, at its bounds: the client never closed them. */
    int closedByTarget() {
        return closedByTarget.get();
    }

    /** Waits up to {@code seconds} until the client has closed {@code count} connections. */
    boolean awaitClosedByClient(int count, long seconds) throws InterruptedException {
        return closedByClient.tryAcquire(count, seconds, TimeUnit.SECONDS);
    }

    private void run() {
        ByteBuffer scratch = ByteBuffer.allocate(64 * 1024);
        try {
            while (!stopped) {
                selector.select(10);
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        SocketChannel channel = server.accept();
                        if (channel != null) {
                            channel.configureBlocking(false);
                            Connection connection = new Connection(channel, System.nanoTime());
                            connections.add(connection);
                            channel.register(selector, SelectionKey.OP_READ, connection);
                        }
                        continue;
                    }
                    Connection connection = (Connection) key.attachment();
                    if (key.isReadable()) {
                        read(connection, scratch);
                    }
                    if (key.isValid() && key.isWritable() && !connection.closed) {
                        write(connection, scratch);
                    }
                }
                selector.selectedKeys().clear();
                long now = System.nanoTime();
                for (Connection connection : List.copyOf(connections)) {
                    if (connection.closed) {
                        connections.remove(connection);
                    } else if (connection.answering) {
                        if (connection.sent >= maxBytes || now - connection.accepted > maxNanos) {
                            close(connection, false);
                        } else if (trickles() && now >= connection.nextWrite) {
                            write(connection, scratch);
                            connection.nextWrite = now + everyNanos;
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException failed) {
            if (!stopped) {
                throw new IllegalStateException("the hostile target stopped", failed);
            }
        }
    }

    private boolean trickles() {
        return mode == Mode.TRICKLE_102 || mode == Mode.TRICKLE_HEADER;
    }

    private void read(Connection connection, ByteBuffer scratch) {
        scratch.clear();
        int read;
        try {
            read = connection.channel.read(scratch);
        } catch (IOException reset) {
            read = -1;
        }
        if (read < 0) {
            close(connection, true);
            return;
        }
        if (connection.answering) {
            return; // more from the client after its request: not expected, ignored
        }
        connection.request.append(new String(scratch.array(), 0, read, StandardCharsets.ISO_8859_1));
        if (!connection.requestComplete()) {
            return;
        }
        connection.answering = true;
        int open = 1;
        for (Connection other : List.copyOf(connections)) {
            if (other != connection && other.answering && !other.closed && !closedNow(other, scratch)) {
                open++;
            }
        }
        mostOpen.accumulateAndGet(open, Math::max);
        if (mode != Mode.SILENT && !trickles()) {
            connection.channel.keyFor(selector).interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
        connection.nextWrite = System.nanoTime();
    }

    /** Whether the client has closed {@code other}: a closed loopback connection reads end-of-stream or a reset. */
    private boolean closedNow(Connection other, ByteBuffer scratch) {
        scratch.clear();
        try {
            if (other.channel.read(scratch) >= 0) {
                return false;
            }
        } catch (IOException reset) {
            // closed
        }
        close(other, true);
        return true;
    }

    private void write(Connection connection, ByteBuffer scratch) {
        scratch.clear();
        if (connection.sent == 0 && mode != Mode.TRICKLE_102) {
            scratch.put(STATUS, 0, mode == Mode.ENDLESS_HEADER_LINE || mode == Mode.TRICKLE_HEADER ? STATUS.length
                    : STATUS.length - "X-Endless: ".length());
        }
        switch (mode) {
            case ENDLESS_HEADER_LINE -> {
                byte[] fill = new byte[scratch.remaining()];
                Arrays.fill(fill, (byte) 'a');
                scratch.put(fill);
            }
            case ENDLESS_HEADER_LINES -> {
                while (scratch.remaining() > 32) {
                    scratch.put(("X-Line-" + (connection.lines++ % 1_000_000) + ": v\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                }
            }
            case TRICKLE_102 -> scratch.put(PROCESSING);
            case TRICKLE_HEADER -> scratch.put((byte) 'a');
            case SILENT -> {
                return;
            }
        }
        scratch.flip();
        try {
            connection.sent += connection.channel.write(scratch);
            mostSent.accumulateAndGet(connection.sent, Math::max);
        } catch (IOException reset) {
            close(connection, true);
        }
    }

    private void close(Connection connection, boolean byClient) {
        if (connection.closed) {
            return;
        }
        connection.closed = true;
        try {
            connection.channel.close();
        } catch (IOException ignored) {
            // closing
        }
        if (byClient) {
            closedByClient.release();
        } else {
            closedByTarget.incrementAndGet();
        }
    }

    @Override
    public void close() throws IOException {
        stopped = true;
        selector.wakeup();
        try {
            loop.join(5_000);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        for (Connection connection : connections) {
            connection.channel.close();
        }
        server.close();
        selector.close();
    }

    /** One connection; touched only by the loop thread. */
    private static final class Connection {
        final SocketChannel channel;
        final long accepted;
        final StringBuilder request = new StringBuilder();
        boolean answering;
        boolean closed;
        long sent;
        long nextWrite;
        int lines;

        Connection(SocketChannel channel, long accepted) {
            this.channel = channel;
            this.accepted = accepted;
        }

        boolean requestComplete() {
            int end = request.indexOf("\r\n\r\n");
            if (end < 0) {
                return false;
            }
            int length = 0;
            for (String line : request.substring(0, end).split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring("content-length:".length()).trim());
                }
            }
            return request.length() >= end + 4 + length;
        }
    }
}
