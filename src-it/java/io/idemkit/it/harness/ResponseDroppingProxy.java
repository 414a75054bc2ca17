package io.idemkit.it.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP proxy between a calling application and the server it calls, for what no client
 * option can stage: it passes a request on, lets the server process it, and drops the response, so
 * that the caller cannot know whether the server ran it. It notes the key every request carried.
 * Requests are HTTP/1.1 on loopback, their headers in the first chunk read.
 */
public final class ResponseDroppingProxy implements AutoCloseable {

    /** A request as the proxy saw it, and whether the answer it passed on was a replay. */
    public static final class Seen {
        private final String tag;
        private final String key;
        private volatile boolean answeredWithReplay;

        public Seen(String tag, String key) {
            this.tag = tag;
            this.key = key;
        }

        String tag() {
            return tag;
        }

        public String key() {
            return key;
        }

        /**
         * @return whether the response the proxy passed on carried {@code Idempotency-Replayed:
         *     true}; {@code false} for a dropped one
         */
        public boolean answeredWithReplay() {
            return answeredWithReplay;
        }
    }

    private final ServerSocket listener;
    private final int serverPort;
    private final AtomicInteger drops = new AtomicInteger();
    private final List<Seen> seen = new ArrayList<>();
    private final ExecutorService pumps =
            Executors.newCachedThreadPool(
                    runnable -> {
                        Thread thread = new Thread(runnable, "dropping-proxy");
                        thread.setDaemon(true);
                        return thread;
                    });

    /**
     * @param serverPort the server's HTTP port on loopback
     */
    public ResponseDroppingProxy(int serverPort) throws IOException {
        this.serverPort = serverPort;
        this.listener = TestPorts.bindLoopback(50);
        pumps.execute(this::accept);
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Drops the responses to the next {@code count} requests, after the server answered them. */
    public void dropNextResponses(int count) {
        drops.set(count);
    }

    /**
     * @return the requests that carried {@code tag} in their {@code X-Test-Tag} header, in order
     */
    public synchronized List<Seen> seen(String tag) {
        return seen.stream().filter(s -> tag.equals(s.tag())).toList();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                Connection connection = new Connection(client, server);
                pumps.execute(connection::requests);
                pumps.execute(connection::responses);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private synchronized void note(Seen request) {
        seen.add(request);
    }

    private static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0
                    && line.substring(0, colon)
                            .strip()
                            .toLowerCase(Locale.ROOT)
                            .equals(name.toLowerCase(Locale.ROOT))) {
                return line.substring(colon + 1).strip();
            }
        }
        return null;
    }

    /** One client connection and its connection to the server. */
    private final class Connection {
        private final Socket client;
        private final Socket server;
        private volatile boolean dropResponse;
        private volatile Seen current;

        Connection(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void requests() {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = client.getInputStream();
                    OutputStream out = server.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) > 0) {
                    String text = new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
                    if (text.matches("(?s)^[A-Z]+ \\S+ HTTP/1\\.1\r\n.*")) {
                        String head = text.split("\r\n\r\n", 2)[0];
                        Seen request =
                                new Seen(
                                        header(head, "X-Test-Tag"),
                                        header(head, "Idempotency-Key"));
                        note(request);
                        current = request;
                        dropResponse = drops.getAndUpdate(d -> Math.max(0, d - 1)) > 0;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the other side closed
            } finally {
                close();
            }
        }

        void responses() {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = server.getInputStream();
                    OutputStream out = client.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) > 0) {
                    if (dropResponse) {
                        // The server has answered, so it processed the request: the answer is lost.
                        return;
                    }
                    Seen answered = current;
                    String text = new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
                    if (answered != null && text.startsWith("HTTP/1.1 ")) {
                        answered.answeredWithReplay =
                                "true"
                                        .equalsIgnoreCase(
                                                header(
                                                        text.split("\r\n\r\n", 2)[0],
                                                        "Idempotency-Replayed"));
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the other side closed
            } finally {
                close();
            }
        }

        private void close() {
            for (Socket socket : List.of(client, server)) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // nothing to do
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        pumps.shutdownNow();
    }
}
