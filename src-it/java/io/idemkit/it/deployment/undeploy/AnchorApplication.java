package io.idemkit.it.deployment.undeploy;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/**
 * The application that stays while the undeploy test removes the others: it tells the JVM's pid,
 * and whether an undeployed application's class loader can be collected.
 */
@ApplicationPath("api")
public class AnchorApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(PidResource.class, LoaderResource.class);
    }
}
