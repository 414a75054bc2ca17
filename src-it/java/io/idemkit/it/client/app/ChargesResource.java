package io.idemkit.it.client.app;

import io.idemkit.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server side the client calls: {@code @Idempotent} resources that count their runs per test
 * tag. {@code slow} outlasts the caller's read timeout, {@code busy} too, and answers its
 * duplicates 423 at once; {@code flaky} answers 503 on its first run (not stored, so a retry runs
 * it again) and notes the {@code Idempotency-Key} each run was sent with; {@code refused} answers
 * 422, which is final; {@code once} always succeeds, {@code shipments} answers 502 on its first
 * run. {@code echo} is a plain, unprotected resource that notes the {@code Idempotency-Key} each
 * call came with, if any.
 */
@Path("charges")
@RequestScoped
public class ChargesResource {

    static final String TAG = "X-Test-Tag";

    private static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

    /** The key each run of a kind was sent with, per test tag, in the order of the runs. */
    private static final Map<String, List<String>> KEYS = new ConcurrentHashMap<>();

    public ChargesResource() {}

    /** When each run of a kind began (monotonic milliseconds), per test tag, in order. */
    private static final Map<String, List<Long>> STARTS = new ConcurrentHashMap<>();

    private static int run(String kind, String tag) {
        STARTS.computeIfAbsent(kind + "/" + tag, k -> new CopyOnWriteArrayList<>())
                .add(System.nanoTime() / 1_000_000);
        return RUNS.computeIfAbsent(kind + "/" + tag, k -> new AtomicInteger()).incrementAndGet();
    }

    private static Response created() {
        return Response.status(201)
                .type("application/json")
                .entity("{\"charge\":\"ch_" + UUID.randomUUID() + "\"}")
                .build();
    }

    @POST
    @Path("slow")
    @Idempotent
    public Response slow(@HeaderParam(TAG) String tag) throws InterruptedException {
        run("slow", tag);
        Thread.sleep(1500);
        return created();
    }

    /**
     * Outlasts the caller's read timeout and lets no duplicate wait: the retry is answered 423 with
     * the lease's rest as {@code Retry-After}, which the caller waits out. The lease is 3 s, twice
     * the run: the retry, a second in, is told to wait about 2 s, by when the result is stored.
     */
    @POST
    @Path("busy")
    @Idempotent(waitTimeout = "0s", leaseTtl = "3s")
    public Response busy(@HeaderParam(TAG) String tag, @HeaderParam("Idempotency-Key") String key)
            throws InterruptedException {
        KEYS.computeIfAbsent("busy/" + tag, k -> new CopyOnWriteArrayList<>())
                .add(String.valueOf(key));
        run("busy", tag);
        Thread.sleep(1500);
        return created();
    }

    @POST
    @Path("flaky")
    @Idempotent
    public Response flaky(
            @HeaderParam(TAG) String tag, @HeaderParam("Idempotency-Key") String key) {
        KEYS.computeIfAbsent("flaky/" + tag, k -> new CopyOnWriteArrayList<>())
                .add(String.valueOf(key));
        if (run("flaky", tag) == 1) {
            return Response.status(503).header("Retry-After", "1").build();
        }
        return created();
    }

    /** Overloaded for longer than any caller waits: 503 with {@code Retry-After: 30}, always. */
    @POST
    @Path("overloaded")
    @Idempotent
    public Response overloaded(@HeaderParam(TAG) String tag) {
        run("overloaded", tag);
        return Response.status(503).header("Retry-After", "30").build();
    }

    @POST
    @Path("refused")
    @Idempotent
    public Response refused(@HeaderParam(TAG) String tag) {
        run("refused", tag);
        return Response.status(422).build();
    }

    @POST
    @Path("once")
    @Idempotent
    public Response once(@HeaderParam(TAG) String tag) {
        run("once", tag);
        return created();
    }

    @POST
    @Path("shipments")
    @Idempotent
    public Response shipments(@HeaderParam(TAG) String tag) {
        if (run("shipments", tag) == 1) {
            return Response.status(502).build();
        }
        return created();
    }

    /** Not {@code @Idempotent}: a plain call, counted, its key (or none) noted. */
    @POST
    @Path("echo")
    public Response echo(@HeaderParam(TAG) String tag, @HeaderParam("Idempotency-Key") String key) {
        KEYS.computeIfAbsent("echo/" + tag, k -> new CopyOnWriteArrayList<>())
                .add(String.valueOf(key));
        run("echo", tag);
        return Response.ok("{}", "application/json").build();
    }

    @GET
    @Path("runs/{kind}/{tag}")
    public String runs(@PathParam("kind") String kind, @PathParam("tag") String tag) {
        AtomicInteger runs = RUNS.get(kind + "/" + tag);
        return Integer.toString(runs == null ? 0 : runs.get());
    }

    /**
     * @return the milliseconds between the starts of one run of {@code kind} for {@code tag} and
     *     the next, one a line
     */
    @GET
    @Path("gaps/{kind}/{tag}")
    public String gaps(@PathParam("kind") String kind, @PathParam("tag") String tag) {
        List<Long> starts = STARTS.getOrDefault(kind + "/" + tag, List.of());
        StringBuilder gaps = new StringBuilder();
        for (int i = 1; i < starts.size(); i++) {
            gaps.append(starts.get(i) - starts.get(i - 1)).append('\n');
        }
        return gaps.toString();
    }

    /**
     * @return the {@code Idempotency-Key} of each run of {@code kind} for {@code tag}, one a line,
     *     in the order of the runs ({@code null} for a run sent without one; the kinds that note
     *     them: {@code flaky}, {@code busy}, {@code echo})
     */
    @GET
    @Path("keys/{kind}/{tag}")
    public String keys(@PathParam("kind") String kind, @PathParam("tag") String tag) {
        return String.join("\n", KEYS.getOrDefault(kind + "/" + tag, List.of()));
    }
}
