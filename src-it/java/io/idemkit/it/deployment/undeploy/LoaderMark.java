package io.idemkit.it.deployment.undeploy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;

/**
 * Added to the applications the undeploy test removes: at startup, it leaves a weak reference to
 * the application's class loader in the JVM's system properties, under {@value #PREFIX} and the
 * name in the application's resource {@value #NAME_RESOURCE}, where {@link LoaderResource} of the
 * anchor application finds it after the undeployment. {@link WeakReference} is a class of the JDK's
 * own loader, so the entry holds nothing of the application.
 */
@ApplicationScoped
public class LoaderMark {

    /** Where the application's name for its mark is. */
    public static final String NAME_RESOURCE = "idemkit-it-loader-mark";

    /** The system properties' prefix of the marks. */
    static final String PREFIX = "idemkit.it.loader.";

    void mark(@Observes @Initialized(ApplicationScoped.class) Object started) {
        ClassLoader loader = LoaderMark.class.getClassLoader();
        try (InputStream name = loader.getResourceAsStream(NAME_RESOURCE)) {
            String key = PREFIX + new String(name.readAllBytes(), StandardCharsets.UTF_8).trim();
            System.getProperties().put(key, new WeakReference<>(loader));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
