package io.idemkit.testsupport;

import io.idemkit.it.harness.TestPorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP proxy in front of a real database server, for what a driver's own hooks cannot do:
 *
 * <ul>
 *   <li>{@link #delayCommandsBy delay} every chunk the client sends before passing it on, so that
 *       commands reach the server late, as they do when the driver spends time in server selection,
 *       a checkout or a retry (the pause is the simulated network, not a synchroniser);
 *   <li>{@link #cut() cut} the network: every open connection is closed and new ones are closed as
 *       they arrive, as when the server or the path to it goes down, until {@link #restore()};
 *   <li>{@link #stallOpen() stall} the connections open now: they stay open, and nothing either
 *       side sends reaches the other any more, as on a half-open connection; new ones pass.
 * </ul>
 */
public final class LoopbackProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final ExecutorService pumps =
            Executors.newCachedThreadPool(
                    runnable -> {
                        Thread thread = new Thread(runnable, "loopback-proxy");
                        thread.setDaemon(true);
                        return thread;
                    });
    private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
    private final Set<Socket> stalled = ConcurrentHashMap.newKeySet();
    private volatile CountDownLatch heldFromClient = new CountDownLatch(1);
    private volatile long delayMillis;
    private volatile boolean cut;

    /**
     * @param port the server's port on loopback
     * @throws IOException if no port is free for the proxy
     */
    public LoopbackProxy(int port) throws IOException {
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        this.listener = TestPorts.bindLoopback(50);
        pumps.execute(this::accept);
    }

    /**
     * @return the proxy's own port on loopback, which clients connect to
     */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * @return how many client connections are open through the proxy
     */
    public int openConnections() {
        return (int) open.stream().filter(clients::contains).count();
    }

    /**
     * @param millis how long each chunk the client sends is held from now on
     */
    public void delayCommandsBy(long millis) {
        delayMillis = millis;
    }

    /** Closes every open connection, and each new one as it arrives, until {@link #restore()}. */
    public void cut() {
        cut = true;
        open.forEach(LoopbackProxy::closeQuietly);
    }

    /**
     * Stalls the connections open now, until {@link #close()}: what either side sends on them is
     * held, never passed on, while both stay open (a half-open connection).
     *
     * @return a latch that opens once a client has sent something on a stalled connection
     */
    public CountDownLatch stallOpen() {
        CountDownLatch held = new CountDownLatch(1);
        heldFromClient = held;
        stalled.addAll(open);
        return held;
    }

    /** Lets new connections through again. */
    public void restore() {
        cut = false;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                if (cut) {
                    closeQuietly(client);
                    continue;
                }
                Socket server = new Socket(target.getAddress(), target.getPort());
                clients.add(client);
                open.add(client);
                open.add(server);
                pumps.execute(() -> pump(client, server, true));
                pumps.execute(() -> pump(server, client, false));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(Socket from, Socket to, boolean delayed) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (stalled.contains(from)) {
                    if (delayed) {
                        heldFromClient.countDown();
                    }
                    synchronized (stalled) {
                        while (stalled.contains(from)) {
                            stalled.wait(); // held until close()
                        }
                    }
                    return;
                }
                long delay = delayMillis;
                if (delayed && delay > 0) {
                    TimeUnit.MILLISECONDS.sleep(delay);
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the other side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
            clients.remove(from);
            clients.remove(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        synchronized (stalled) {
            stalled.clear();
            stalled.notifyAll();
        }
        cut();
        pumps.shutdownNow();
    }
}
