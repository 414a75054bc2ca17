package io.idemkit.it.http.heap;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The heap the server's JVM really retains: its used heap right after full collections (the IT
 * servers run the serial collector, whose full collection compacts, so what is used then is what is
 * reachable), the least of three, in bytes.
 */
@Path("heap")
public class HeapResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String retained() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            memory.gc();
            least = Math.min(least, memory.getHeapMemoryUsage().getUsed());
        }
        return Long.toString(least);
    }
}
