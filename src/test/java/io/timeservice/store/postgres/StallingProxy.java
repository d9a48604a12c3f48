package io.timeservice.store.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP proxy on 127.0.0.1 (a free port) in front of the test database's server, which can make the connections open
 * through it go silent without closing them ({@link #stallOpenConnections}): what clients of a primary see that
 * vanished with its host or network (no FIN, no RST), while new connections, as to the new primary, work. Stalled
 * connections swallow what either side sends. {@link #close} closes every socket.
 */
final class StallingProxy implements AutoCloseable {

    private static final Pattern HOST_PORT = Pattern.compile("//([^:/?,]+)(?::(\\d+))?/");

    private final ServerSocket server;
    private final String host;
    private final int port;
    private final List<Link> links = new CopyOnWriteArrayList<>();

    /** One client's connection and its upstream one; stalled links forward nothing. */
    private static final class Link {
        final Socket client;
        final Socket upstream;
        volatile boolean stalled;

        Link(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void close() {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    private StallingProxy(ServerSocket server, String host, int port) {
        this.server = server;
        this.host = host;
        this.port = port;
    }

    /** A proxy to the server of {@link TestDatabase#URL}, accepting connections. */
    static StallingProxy toTestDatabase() throws IOException {
        Matcher url = HOST_PORT.matcher(TestDatabase.URL);
        if (!url.find()) {
            throw new IllegalStateException("no host in TIMESERVICE_TEST_JDBC_URL " + TestDatabase.URL);
        }
        StallingProxy proxy = new StallingProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
                url.group(1), url.group(2) == null ? 5432 : Integer.parseInt(url.group(2)));
        Thread acceptor = new Thread(proxy::accept, "stalling-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return proxy;
    }

    /** {@code url} (of the test database's server) with this proxy in place of the server's host and port. */
    String through(String url) {
        return HOST_PORT.matcher(url).replaceFirst("//127.0.0.1:" + server.getLocalPort() + "/");
    }

    /** Every connection open now goes silent, both ways, and stays open; later connections work. */
    void stallOpenConnections() {
        links.forEach(link -> link.stalled = true);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Link link = new Link(client, new Socket(host, port));
                links.add(link);
                pump(link, client.getInputStream(), link.upstream.getOutputStream());
                pump(link, link.upstream.getInputStream(), client.getOutputStream());
            } catch (IOException closedOrRefused) {
                // the proxy was closed, or the server refused: the client sees its connection fail
            }
        }
    }

    private static void pump(Link link, InputStream from, OutputStream to) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try {
                for (int read; (read = from.read(buffer)) >= 0; ) {
                    if (!link.stalled) {
                        to.write(buffer, 0, read);
                        to.flush();
                    }
                }
            } catch (IOException closed) {
                // either side closed
            }
            if (!link.stalled) {
                link.close();
            }
        }, "stalling-proxy-pump");
        pump.setDaemon(true);
        pump.start();
    }

    @Override
    public void close() {
        closeQuietly(server);
        links.forEach(Link::close);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing anyway
        }
    }
}
