package io.idemkit.cdi;

import io.idemkit.client.AttemptInterceptor;
import io.idemkit.client.OperationInterceptor;
import io.idemkit.message.MessageSurface;
import io.idemkit.method.IdempotentInterceptor;
import io.idemkit.method.MethodPlans;
import io.idemkit.method.ResultCodecProducer;
import io.idemkit.reactive.ReactiveSurface;
import io.idemkit.transaction.InTransactionInterceptor;
import io.idemkit.transaction.TransactionHooksProducer;
import jakarta.enterprise.inject.spi.Extension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.weld.bootstrap.api.Service;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * One Weld deployment of the library's beans plus a test's own, under a MicroProfile Config that
 * holds exactly the test's properties.
 */
public final class TestDeployment implements AutoCloseable {

    /**
     * The library's bean classes, as an application's deployment discovers them (its beans.xml is
     * {@code annotated}); the optional integrations are added by the extension itself.
     */
    public static final List<Class<?>> LIBRARY_BEANS =
            List.of(
                    ConfigProducer.class,
                    StoreProducer.class,
                    EngineProducer.class,
                    ScopeProducer.class,
                    HeartbeatProducer.class,
                    MethodPolicies.class,
                    IdemkitStartup.class,
                    ResultCodecProducer.class,
                    TransactionHooksProducer.class,
                    MethodPlans.class,
                    MessageSurface.class,
                    ReactiveSurface.class,
                    IdempotentInterceptor.class,
                    InTransactionInterceptor.class,
                    ClientProducer.class,
                    OpenApiProducer.class,
                    OperationInterceptor.class,
                    AttemptInterceptor.class);

    private final Map<String, String> properties = new HashMap<>();
    private final List<Service> services = new ArrayList<>();
    private final List<Extension> extensions = new ArrayList<>();
    private TestConfig config;
    private WeldContainer container;

    public TestDeployment set(String key, String value) {
        properties.put(key, value);
        return this;
    }

    /**
     * @param service a service of the container's, as a runtime's integration gives Weld one (the
     *     caller's principal: {@code Callers.weld()})
     * @return this deployment
     */
    public TestDeployment with(Service service) {
        services.add(service);
        return this;
    }

    /**
     * @param extension another portable extension, beside the library's (a stand-in for a
     *     runtime's)
     * @return this deployment
     */
    public TestDeployment with(Extension extension) {
        extensions.add(extension);
        return this;
    }

    public WeldContainer start(Class<?>... extra) {
        config = TestConfig.of(properties);
        List<Class<?>> classes = new ArrayList<>(LIBRARY_BEANS);
        classes.addAll(List.of(extra));
        container =
                new Weld()
                        .disableDiscovery()
                        .containerId(null)
                        .addExtension(new IdemkitExtension())
                        .addExtensions(extensions.toArray(Extension[]::new))
                        .addServices(services.toArray(Service[]::new))
                        .addBeanClasses(classes.toArray(Class<?>[]::new))
                        .initialize();
        return container;
    }

    @Override
    public void close() {
        if (container != null && container.isRunning()) {
            container.shutdown();
        }
        if (config != null) {
            config.close();
        }
    }
}
