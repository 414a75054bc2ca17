package io.idemkit.it.harness;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;
import org.jboss.arquillian.container.spi.context.annotation.DeploymentScoped;
import org.jboss.arquillian.core.api.InstanceProducer;
import org.jboss.arquillian.core.api.annotation.Inject;
import org.jboss.arquillian.core.api.annotation.Observes;

/**
 * Points a deployment's HTTP contexts at {@code 127.0.0.1} when the server reported a host that is
 * not loopback. Payara Micro reports its machine's address (it has no option to report another),
 * while the ITs bind its HTTP listener to {@code 127.0.0.1}: no IT server may be reachable from the
 * network. Port and context roots stay as reported.
 */
public class LoopbackHttpContexts {

    private static final String LOOPBACK = "127.0.0.1";

    @Inject @DeploymentScoped private InstanceProducer<ProtocolMetaData> metadata;

    /**
     * @param reported what the adapter reported for the deployment just made; setting the rewritten
     *     one fires this again, and then every host is loopback
     */
    public void toLoopback(@Observes ProtocolMetaData reported) {
        if (reported.getContexts(HTTPContext.class).stream()
                .allMatch(c -> isLoopback(c.getHost()))) {
            return;
        }
        ProtocolMetaData rewritten = new ProtocolMetaData();
        for (Object context : reported.getContexts()) {
            if (context instanceof HTTPContext http && !isLoopback(http.getHost())) {
                HTTPContext local =
                        new HTTPContext(
                                http.getName(),
                                LOOPBACK,
                                http.getPort(),
                                "https".equals(http.getScheme()));
                for (Servlet servlet : http.getServlets()) {
                    local.add(new Servlet(servlet.getName(), servlet.getContextRoot()));
                }
                rewritten.addContext(local);
            } else {
                rewritten.addContext(context);
            }
        }
        metadata.set(rewritten);
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
