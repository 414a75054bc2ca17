package io.idemkit.it.deployment.undeploy;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.lang.ref.Reference;
import java.util.concurrent.TimeUnit;

/**
 * Of the anchor application: whether the class loader of an application that {@link LoaderMark}
 * marked, now undeployed, can be collected. It runs full collections (the IT servers' JVMs clear
 * soft references at each, {@code -XX:SoftRefLRUPolicyMSPerMB=0}) for up to 30 s, until the mark's
 * weak reference is cleared.
 */
@Path("loader")
public class LoaderResource {

    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(30);

    /**
     * @param name the application's name for its mark
     * @return {@code collected}, {@code held} (still reachable after 30 s), or {@code unmarked}
     *     (the application never marked its loader)
     */
    @GET
    @Path("{name}")
    @Produces(MediaType.TEXT_PLAIN)
    public String collected(@PathParam("name") String name) throws InterruptedException {
        String key = LoaderMark.PREFIX + name;
        if (!(System.getProperties().get(key) instanceof Reference<?> mark)) {
            return "unmarked";
        }
        long start = System.nanoTime();
        while (!mark.refersTo(null) && System.nanoTime() - start < PATIENCE_NANOS) {
            System.gc();
            Thread.sleep(250);
        }
        if (mark.refersTo(null)) {
            System.getProperties().remove(key);
            return "collected";
        }
        return "held";
    }
}
