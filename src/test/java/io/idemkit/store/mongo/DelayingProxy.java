package io.idemkit.store.mongo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP proxy in front of a MongoDB-wire server that holds every chunk the client sends
 * for a settable delay before passing it on: commands reach the server late, as they do when the
 * driver spends time in server selection, a checkout or a retry. A driver {@code CommandListener}
 * cannot delay a command; this can. The pause is the simulated network, not a synchroniser.
 */
final class DelayingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final ExecutorService pumps =
            Executors.newCachedThreadPool(
                    runnable -> {
                        Thread thread = new Thread(runnable, "delaying-proxy");
                        thread.setDaemon(true);
                        return thread;
                    });
    private volatile long delayMillis;

    DelayingProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        pumps.execute(this::accept);
    }

    String uri() {
        return "mongodb://127.0.0.1:" + listener.getLocalPort() + "/?directConnection=true";
    }

    void delayCommandsBy(long millis) {
        delayMillis = millis;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(target.getAddress(), target.getPort());
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
        pumps.shutdownNow();
    }
}
