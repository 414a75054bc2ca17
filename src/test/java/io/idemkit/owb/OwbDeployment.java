package io.idemkit.owb;

import io.idemkit.cdi.IdemkitExtension;
import io.idemkit.cdi.TestConfig;
import io.idemkit.cdi.TestDeployment;
import jakarta.enterprise.inject.se.SeContainer;
import jakarta.enterprise.inject.spi.Extension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.openwebbeans.se.OWBInitializer;
import org.apache.webbeans.config.WebBeansFinder;
import org.apache.webbeans.service.DefaultLoaderService;
import org.apache.webbeans.spi.ContextsService;
import org.apache.webbeans.spi.LoaderService;
import org.apache.webbeans.spi.SecurityService;

/**
 * One OpenWebBeans SE deployment of the library's beans plus a test's own, under a MicroProfile
 * Config that holds exactly the test's properties: the OpenWebBeans twin of {@link TestDeployment}.
 *
 * <p>Weld is on the same class path and also implements {@code SeContainerInitializer}, so {@code
 * SeContainerInitializer.newInstance()} would pick whichever the service loader lists first; this
 * class instantiates OpenWebBeans' {@link OWBInitializer} itself. Discovery is disabled (unless
 * {@link #discoverLibrary()}), and the extensions are exactly {@link IdemkitExtension} and the
 * test's own: OpenWebBeans would otherwise load every {@code Extension} service on the test class
 * path.
 *
 * <p>OpenWebBeans fails a deployment with a generic message ("There are errors that are added by
 * AfterDeploymentValidation event observers. Look at logs for further details") and logs each
 * problem at SEVERE: {@link #deploymentErrors()} holds what it logged, which is where a TomEE user
 * reads the library's messages.
 *
 * <p>The contexts start in TomEE's order ({@link SingletonContextAfterDeployment}), not in the SE
 * order, so that what fails on TomEE fails here.
 */
public final class OwbDeployment implements AutoCloseable {

    private final Map<String, String> properties = new HashMap<>();
    private final List<Extension> extensions = new ArrayList<>();
    private final List<String> deploymentErrors = new CopyOnWriteArrayList<>();
    private SecurityService security;
    private boolean discover;
    private TestConfig config;
    private SeContainer container;

    /**
     * @param key a configuration key
     * @param value its value
     * @return this deployment
     */
    public OwbDeployment set(String key, String value) {
        properties.put(key, value);
        return this;
    }

    /**
     * @param extension another portable extension (OpenWebBeans may notify it before the library's
     *     own, whatever the order given here)
     * @return this deployment
     */
    public OwbDeployment with(Extension extension) {
        extensions.add(extension);
        return this;
    }

    /**
     * @param security the security service, through which the built-in {@code Principal} bean
     *     yields the caller, as TomEE's does ({@code Callers.openWebBeans()})
     * @return this deployment
     */
    public OwbDeployment with(SecurityService security) {
        this.security = security;
        return this;
    }

    /**
     * Finds the library's beans as a runtime does: by scanning the class path for bean archives,
     * which only the library's classes are ({@code target/classes} has its {@code
     * META-INF/beans.xml}, with {@code bean-discovery-mode="annotated"}); instead of listing them.
     * Archives without a beans.xml are not scanned, as in a WAR.
     *
     * @return this deployment
     */
    public OwbDeployment discoverLibrary() {
        discover = true;
        return this;
    }

    /**
     * Boots the container; a failed deployment leaves nothing registered behind.
     *
     * @param extra the test's bean classes, beside the library's
     * @return the running container
     */
    public SeContainer start(Class<?>... extra) {
        config = TestConfig.of(properties);
        List<Class<?>> classes =
                new ArrayList<>(discover ? List.of() : TestDeployment.LIBRARY_BEANS);
        classes.addAll(List.of(extra));
        List<Extension> all = new ArrayList<>();
        all.add(new IdemkitExtension());
        all.addAll(extensions);
        OWBInitializer initializer = new OWBInitializer();
        if (discover) {
            initializer.addProperty("org.apache.webbeans.scanBeansXmlOnly", "true");
        } else {
            initializer.disableDiscovery();
        }
        initializer
                .addBeanClasses(classes.toArray(Class<?>[]::new))
                .addProperty(LoaderService.class.getName(), new OnlyTheseExtensions(all))
                .addProperty(
                        ContextsService.class.getName(),
                        SingletonContextAfterDeployment.class.getName());
        if (security != null) {
            initializer.addProperty(SecurityService.class.getName(), security);
        }
        Logger owbLog = Logger.getLogger("org.apache.webbeans");
        Handler capture = new SevereMessages(deploymentErrors);
        owbLog.addHandler(capture);
        try {
            container = initializer.initialize();
        } catch (RuntimeException e) {
            // OpenWebBeans keeps its context per class loader, and a failed start does not
            // unregister it: the next deployment in this JVM would be refused.
            WebBeansFinder.clearInstances(Thread.currentThread().getContextClassLoader());
            config.close();
            config = null;
            throw e;
        } finally {
            owbLog.removeHandler(capture);
        }
        return container;
    }

    /**
     * @return every problem OpenWebBeans logged at SEVERE while deploying, with its exception's
     *     message, one per line
     */
    public String deploymentErrors() {
        return String.join("\n", deploymentErrors);
    }

    @Override
    public void close() {
        if (container != null && container.isRunning()) {
            container.close();
        }
        container = null;
        if (config != null) {
            config.close();
            config = null;
        }
    }

    /** Keeps the SEVERE records of OpenWebBeans: the deployment problems it reports. */
    private static final class SevereMessages extends Handler {
        private final List<String> messages;

        SevereMessages(List<String> messages) {
            this.messages = messages;
        }

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                Throwable thrown = record.getThrown();
                messages.add(
                        record.getMessage() + (thrown == null ? "" : " | " + thrown.getMessage()));
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    /** The service loader of OpenWebBeans, with the deployment's extensions and no others. */
    private static final class OnlyTheseExtensions extends DefaultLoaderService {
        private final List<Extension> extensions;

        OnlyTheseExtensions(List<Extension> extensions) {
            this.extensions = List.copyOf(extensions);
        }

        @Override
        public <T> List<T> load(Class<T> serviceType) {
            return load(serviceType, Thread.currentThread().getContextClassLoader());
        }

        @Override
        public <T> List<T> load(Class<T> serviceType, ClassLoader loader) {
            if (serviceType == Extension.class) {
                List<T> only = new ArrayList<>();
                extensions.forEach(e -> only.add(serviceType.cast(e)));
                return only;
            }
            return super.load(serviceType, loader);
        }
    }
}
