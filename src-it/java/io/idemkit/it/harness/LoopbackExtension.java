package io.idemkit.it.harness;

import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Registers {@link LoopbackHttpContexts}: every IT server listens on loopback only, so the tests
 * reach it there, whatever host name the server reports.
 */
public final class LoopbackExtension implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        builder.observer(LoopbackHttpContexts.class);
    }
}
