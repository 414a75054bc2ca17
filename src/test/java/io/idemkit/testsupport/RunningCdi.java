package io.idemkit.testsupport;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.enterprise.inject.spi.CDIProvider;
import org.apache.webbeans.container.OwbCDIProvider;
import org.jboss.weld.environment.se.WeldSEProvider;

/**
 * {@code CDI.current()} for tests that run Weld and OpenWebBeans containers one after the other in
 * one JVM. The CDI API keeps the first provider whose {@code getCDI()} answered, for good, and
 * OpenWebBeans' answers even when none of its containers runs (it fails only on use), so a Weld
 * test after an OpenWebBeans test would reach OpenWebBeans. This provider asks Weld's first, whose
 * {@code getCDI()} fails when no Weld container runs, and falls back to OpenWebBeans'. Code under
 * test that calls {@code CDI.current()} (Fault Tolerance's interceptor, the OpenAPI filter) then
 * reaches the container that runs, whatever ran before.
 */
public final class RunningCdi implements CDIProvider {

    private static final CDIProvider WELD = new WeldSEProvider();
    private static final CDIProvider OWB = new OwbCDIProvider();

    private RunningCdi() {}

    /** Makes {@code CDI.current()} reach the running container; idempotent. */
    public static void install() {
        CDI.setCDIProvider(new RunningCdi());
    }

    @Override
    public CDI<Object> getCDI() {
        try {
            return WELD.getCDI();
        } catch (IllegalStateException e) {
            return OWB.getCDI();
        }
    }
}
