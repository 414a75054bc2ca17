package io.idemkit.it.harness;

import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Registers the harness's Arquillian observers: {@link LoopbackHttpContexts} (every IT server
 * listens on loopback only, so the tests reach it there, whatever host name the server reports) and
 * {@link PayaraPortFree} (a Payara Micro deployment waits for the last one's server to let go of
 * the port).
 */
public final class HarnessExtension implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        builder.observer(LoopbackHttpContexts.class);
        builder.observer(PayaraPortFree.class);
    }
}
