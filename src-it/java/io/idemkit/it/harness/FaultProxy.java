package io.idemkit.it.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A loopback TCP proxy in front of one target ({@code host:port}) that injects the network faults a
 * store or a runtime must survive: added latency, a stall (a half-open connection) and a cut.
 *
 * <p>It listens on loopback, on a port of {@link TestPorts}, and copies bytes both ways between
 * each accepted connection and a new connection to the target, one daemon thread per direction.
 * Connections are numbered from 0 in the order they are accepted ({@link #connectionsAccepted()}).
 *
 * <ul>
 *   <li><b>Pass-through</b>, the initial state, and what {@link #restore()} returns to.
 *   <li><b>Latency</b> ({@link #latency(Duration)}): each chunk read is held that long before it is
 *       forwarded, in both directions.
 *   <li><b>Stall</b>: the proxy keeps both sockets open and forwards nothing, in either direction,
 *       so each side sees a peer that is there and never answers (no reset, no end of stream), as
 *       behind a dead route or a hung peer. A chunk read while stalled is held, not dropped, and
 *       forwarded once the stall ends. Stall every connection open now ({@link #stallOpen()}),
 *       every connection accepted from now on ({@link #stallNew()}), both ({@link #stallAll()}),
 *       one by its number ({@link #stall(int)}), or exactly one chosen by traffic: the next
 *       connection that sends bytes towards the target ({@link #stallNextSender()}), which is the
 *       connection a client's next statement goes over, whichever pooled connection that is.
 *   <li><b>Cut</b> ({@link #cut()}): every open connection is closed (both sockets, reset) and
 *       every new one is accepted and reset at once, so a client sees its connections die and no
 *       new one succeed.
 *   <li><b>Restore</b> ({@link #restore()}): no latency, no stall (held chunks are forwarded), new
 *       connections pass again. Connections a cut closed stay closed.
 * </ul>
 *
 * <p>Thread-safe. Closing it closes the listener and every connection; its threads are daemons and
 * end with their sockets.
 */
public final class FaultProxy implements AutoCloseable {

    private static final int CHUNK = 16 * 1024;

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicReference<CompletableFuture<Integer>> nextSender = new AtomicReference<>();
    private volatile long latencyNanos;
    private volatile boolean stallNew;
    private volatile boolean cut;
    private volatile boolean closed;

    /**
     * Starts the proxy: it listens at once.
     *
     * @param targetHost the target's host, on loopback in the tests
     * @param targetPort the target's port
     */
    public FaultProxy(String targetHost, int targetPort) {
        this.target = new InetSocketAddress(Objects.requireNonNull(targetHost), targetPort);
        this.listener = TestPorts.bindLoopback(50);
        Thread acceptor = new Thread(this::accept, "fault-proxy-accept-" + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * @return the loopback port the proxy listens on
     */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * @return how many connections were accepted so far, cut ones included; the next one accepted
     *     gets this number
     */
    public int connectionsAccepted() {
        return accepted.get();
    }

    /**
     * @return how many connections are open now (both sockets)
     */
    public int openConnections() {
        return (int) links.stream().filter(l -> !l.closed).count();
    }

    /**
     * Holds each chunk this long before forwarding it, in both directions; zero for none.
     *
     * @param perChunk the added latency per chunk
     */
    public void latency(Duration perChunk) {
        latencyNanos = perChunk.toNanos();
    }

    /** Stalls every connection open now and every one accepted from now on. */
    public void stallAll() {
        stallNew = true;
        stallOpen();
    }

    /** Stalls every connection open now; new ones pass. */
    public void stallOpen() {
        links.forEach(l -> l.stalled = true);
    }

    /** Stalls every connection accepted from now on; open ones pass. */
    public void stallNew() {
        stallNew = true;
    }

    /**
     * Stalls one connection by its number ({@link #connectionsAccepted()} counts them from 0).
     *
     * @param index the connection's number
     * @throws IllegalArgumentException when no such connection was accepted
     */
    public void stall(int index) {
        links.stream()
                        .filter(l -> l.index == index)
                        .findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("no connection " + index))
                        .stalled =
                true;
    }

    /**
     * Stalls exactly one connection: the next one, open now or accepted later, that sends bytes
     * towards the target. Those bytes are held, and so is everything after them, both ways. Only
     * one such request is pending at a time; a second call replaces the first.
     *
     * @return completed with the stalled connection's number once it is chosen
     */
    public CompletableFuture<Integer> stallNextSender() {
        CompletableFuture<Integer> chosen = new CompletableFuture<>();
        CompletableFuture<Integer> before = nextSender.getAndSet(chosen);
        if (before != null) {
            before.cancel(false);
        }
        return chosen;
    }

    /**
     * Closes every open connection, both sockets with a reset, and resets every new one as soon as
     * it is accepted, until {@link #restore()}.
     */
    public void cut() {
        cut = true;
        links.forEach(Link::close);
    }

    /**
     * Back to pass-through: no latency, no stall (held chunks go on), new connections pass again, a
     * pending {@link #stallNextSender()} is dropped. Connections a cut closed stay closed.
     */
    public void restore() {
        latencyNanos = 0;
        stallNew = false;
        cut = false;
        CompletableFuture<Integer> pending = nextSender.getAndSet(null);
        if (pending != null) {
            pending.cancel(false);
        }
        for (Link l : links) {
            synchronized (l) {
                l.stalled = false;
                l.notifyAll();
            }
        }
    }

    /** Closes the listener and every connection. */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        links.forEach(Link::close);
        restore(); // wakes stalled pumps, which then find their sockets closed
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            int index = accepted.getAndIncrement();
            if (cut) {
                reset(client);
                continue;
            }
            Socket server = new Socket();
            try {
                server.connect(target, 5_000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
            } catch (IOException e) {
                reset(client);
                reset(server);
                continue;
            }
            Link link = new Link(index, client, server, stallNew);
            links.add(link);
            link.start();
        }
    }

    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (SocketException e) {
            // closing anyway
        }
        try {
            socket.close();
        } catch (IOException e) {
            // closed
        }
    }

    /** One proxied connection: the client's socket and the proxy's own to the target. */
    private final class Link {
        final int index;
        final Socket client;
        final Socket server;
        volatile boolean stalled;
        volatile boolean closed;

        /** How many directions have seen the end of their stream. */
        final AtomicInteger ended = new AtomicInteger();

        Link(int index, Socket client, Socket server, boolean stalled) {
            this.index = index;
            this.client = client;
            this.server = server;
            this.stalled = stalled;
        }

        void start() {
            pump(client, server, true, "up");
            pump(server, client, false, "down");
        }

        private void pump(Socket from, Socket to, boolean towardsTarget, String direction) {
            Thread thread =
                    new Thread(
                            () -> copy(from, to, towardsTarget),
                            "fault-proxy-" + port() + "-" + index + "-" + direction);
            thread.setDaemon(true);
            thread.start();
        }

        private void copy(Socket from, Socket to, boolean towardsTarget) {
            byte[] chunk = new byte[CHUNK];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(chunk)) >= 0) {
                    if (towardsTarget && n > 0) {
                        CompletableFuture<Integer> chooser = nextSender.get();
                        if (chooser != null && nextSender.compareAndSet(chooser, null)) {
                            stalled = true;
                            chooser.complete(index);
                        }
                    }
                    awaitUnstalled();
                    long latency = latencyNanos;
                    if (latency > 0) {
                        TimeUnit.NANOSECONDS.sleep(latency);
                    }
                    if (closed) {
                        return;
                    }
                    out.write(chunk, 0, n);
                    out.flush();
                }
                // A half-close passes on: the peer sees the end of the stream too.
                to.shutdownOutput();
                if (ended.incrementAndGet() == 2) {
                    close();
                }
            } catch (IOException e) {
                close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
            }
        }

        private synchronized void awaitUnstalled() throws InterruptedException {
            while (stalled && !closed) {
                wait();
            }
        }

        void close() {
            synchronized (this) {
                closed = true;
                notifyAll();
            }
            reset(client);
            reset(server);
        }
    }
}
