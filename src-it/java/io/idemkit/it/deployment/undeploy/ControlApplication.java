package io.idemkit.it.deployment.undeploy;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/**
 * The control of the class loader check: an application without idemkit, a JAX-RS resource and a
 * CDI bean ({@link LoaderMark}) like the others, deployed, used and undeployed in the same way.
 * What happens to its class loader is what the runtime does, with no library of ours in it.
 */
@ApplicationPath("api")
public class ControlApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(PidResource.class);
    }
}
