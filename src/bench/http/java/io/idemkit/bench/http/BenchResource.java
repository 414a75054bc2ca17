package io.idemkit.bench.http;

import com.mongodb.client.MongoClient;
import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.bson.Document;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The endpoints the load client drives: one trivial handler without and with {@code @Idempotent},
 * and a 50 ms one with it. Each counts its runs, so that a replay case can show the handler did not
 * run.
 */
@Path("")
@ApplicationScoped
public class BenchResource {

    private static final String BODY = "{\"status\":\"ok\",\"amount\":1999,\"currency\":\"EUR\"}";
    private static final long SLOW_MS = 50;

    private final AtomicLong runs = new AtomicLong();
    private volatile Map<Long, Long> mark;
    private final Instance<MongoClient> mongo;
    private final boolean onMongo;

    /**
     * For the CDI proxy only; CDI creates the resource through the other constructor. Public,
     * because a JAX-RS runtime may refuse a resource class without a public constructor (RESTEasy
     * on WildFly does: RESTEASY003190), and the one bench WAR deploys unchanged on every runtime.
     */
    public BenchResource() {
        this.mongo = null;
        this.onMongo = false;
    }

    /**
     * @param mongo the embedded MongoDB's client, looked up only when the store is MongoDB
     * @param store {@code idemkit.store}, as run.sh sets it
     */
    @Inject
    public BenchResource(
            Instance<MongoClient> mongo,
            @ConfigProperty(name = "idemkit.store", defaultValue = "auto") String store) {
        this.mongo = mongo;
        this.onMongo = !"memory".equals(store);
    }

    /**
     * @param request the request body, read as JSON-P providers would see it
     * @return 200 with a small JSON body
     */
    @POST
    @Path("plain")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response plain(String request) {
        runs.incrementAndGet();
        return Response.ok(BODY).build();
    }

    /**
     * @param request the request body
     * @return the same as {@link #plain}, once per idempotency key
     */
    @POST
    @Path("idem")
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response idempotent(String request) {
        runs.incrementAndGet();
        return Response.ok(BODY).build();
    }

    /**
     * @param request the request body
     * @return the same after 50 ms of simulated work, once per idempotency key
     * @throws InterruptedException if the server stops meanwhile
     */
    @POST
    @Path("slow")
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response slow(String request) throws InterruptedException {
        runs.incrementAndGet();
        // Simulated work (a database call, a payment provider), not a synchronizer.
        Thread.sleep(SLOW_MS);
        return Response.ok(BODY).build();
    }

    /**
     * Deletes idemkit's records between two cases on the MongoDB store: mongo-java-server scans the
     * whole collection for the complete's filter, which MongoDB serves from the _id index, so a
     * collection left to grow would make each case slower than the one before.
     *
     * @return how many records were deleted, as text
     */
    @DELETE
    @Path("records")
    @Produces(MediaType.TEXT_PLAIN)
    public String deleteRecords() {
        if (!onMongo) {
            return "0";
        }
        return Long.toString(
                mongo.get()
                        .getDatabase("idemkit")
                        .getCollection("idemkit_records")
                        .deleteMany(new Document())
                        .getDeletedCount());
    }

    /**
     * Notes what each of the server's live threads has allocated so far, for {@link #allocated}:
     * run.sh marks before a case and reads after it.
     *
     * @return {@code ok}, or {@code unknown} where HotSpot's {@code
     *     com.sun.management.ThreadMXBean} is missing
     */
    @POST
    @Path("allocated")
    @Produces(MediaType.TEXT_PLAIN)
    public String markAllocated() {
        mark = allocatedByThread();
        return mark == null ? "unknown" : "ok";
    }

    /**
     * The bytes the server's threads allocated since the {@linkplain #markAllocated mark}: each
     * live thread's count less its count at the mark (a thread started since counts whole). A
     * thread that ended meanwhile takes its part with it, so this is a floor; the runtimes' request
     * threads are pooled and outlive a case.
     *
     * @return the bytes, as text; -1 without a mark
     */
    @GET
    @Path("allocated")
    @Produces(MediaType.TEXT_PLAIN)
    public String allocated() {
        Map<Long, Long> before = mark;
        Map<Long, Long> now = allocatedByThread();
        if (before == null || now == null) {
            return "-1";
        }
        long total = 0;
        for (var thread : now.entrySet()) {
            total += thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
        }
        return Long.toString(total);
    }

    /** Each live thread's allocated bytes by its id, or null without HotSpot's ThreadMXBean. */
    private static Map<Long, Long> allocatedByThread() {
        if (!(ManagementFactory.getThreadMXBean()
                instanceof com.sun.management.ThreadMXBean threads)) {
            return null;
        }
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        Map<Long, Long> counts = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] > 0) { // -1: the thread ended meanwhile
                counts.put(ids[i], bytes[i]);
            }
        }
        return counts;
    }

    /**
     * @return how many times a handler ran, as text
     */
    @GET
    @Path("runs")
    @Produces(MediaType.TEXT_PLAIN)
    public String runs() {
        return Long.toString(runs.get());
    }
}
