package io.idemkit.it.harness;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.jboss.arquillian.container.spi.event.container.BeforeDeploy;
import org.jboss.arquillian.core.api.annotation.Observes;

/**
 * Before the Payara Micro adapter deploys, waits until the container's fixed HTTP port can be bound
 * again. The adapter starts one Payara Micro per deployment on that one port and ends the last one
 * with {@link Process#destroy()} without waiting for it to exit; the next deployment's server then
 * started while the old one still listened, failed to bind, and the test's requests reached the old
 * server, which had already undeployed its application: a 404 in place of the test's answer. Other
 * adapters are left alone.
 */
public class PayaraPortFree {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    /**
     * @param event the deployment about to be made
     */
    public void awaitPortFree(@Observes BeforeDeploy event) throws InterruptedException {
        if (!event.getDeployableContainer().getClass().getSimpleName().startsWith("PayaraMicro")) {
            return;
        }
        int port = Integer.getInteger("payara.http.port", 8180);
        long start = System.nanoTime();
        long deadline = start + PATIENCE.toNanos();
        boolean waited = false;
        while (!bindable(port)) {
            waited = true;
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Payara Micro's port "
                                + port
                                + " is still taken "
                                + PATIENCE.toSeconds()
                                + " s after the last deployment ended: another process holds it");
            }
            Thread.sleep(100);
        }
        if (waited) {
            System.out.printf(
                    "[idemkit-it] waited %d ms for Payara Micro's port %d to be free%n",
                    Duration.ofNanos(System.nanoTime() - start).toMillis(), port);
        }
    }

    /**
     * Binds as Payara Micro's listener does: loopback, with the address reusable. Not {@code
     * TestPorts.free}, which binds without reuse: connections the old server closed can stay in
     * TIME_WAIT on this port for up to a minute, and Linux refuses such a bind meanwhile.
     */
    static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
