package io.idemkit.it.kafka.app;

import io.idemkit.IdempotencyRecordExhausted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the application did, counted per tag and event since the server started, and read by the
 * tests at {@code GET api/kafka/<tag>/<event>}; with the exhausted records (C17.4): {@code
 * exhausted}, {@code exhausted-attempts-<n>}.
 */
@Path("kafka")
@ApplicationScoped
public class Counts {

    private static final Map<String, AtomicInteger> COUNTS = new ConcurrentHashMap<>();

    static void add(String tag, String event) {
        COUNTS.computeIfAbsent(tag + "/" + event, k -> new AtomicInteger()).incrementAndGet();
    }

    void exhausted(@Observes IdempotencyRecordExhausted event) {
        String tag = String.valueOf(event.message().getPayload()).split(":", 3)[1];
        add(tag, "exhausted");
        add(tag, "exhausted-attempts-" + event.attempts());
    }

    @GET
    @Path("{tag}/{event}")
    @Produces(MediaType.TEXT_PLAIN)
    public String count(@PathParam("tag") String tag, @PathParam("event") String event) {
        AtomicInteger count = COUNTS.get(tag + "/" + event);
        return Integer.toString(count == null ? 0 : count.get());
    }
}
