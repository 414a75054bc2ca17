package io.idemkit.it.deployment.undeploy;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Added to the applications the undeploy test removes: the process id of the server's JVM, which
 * the test then looks into with {@code jcmd} (its threads).
 */
@Path("pid")
public class PidResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String pid() {
        return Long.toString(ProcessHandle.current().pid());
    }
}
