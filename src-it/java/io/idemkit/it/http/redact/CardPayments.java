package io.idemkit.it.http.redact;

import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.atomic.AtomicInteger;

/** Charges a card and answers with its full number, as a careless payment API would. */
@Path("payments")
@ApplicationScoped
public class CardPayments {

    /** The card every charge answers with. */
    public static final String CARD = "4111111111111111";

    private final AtomicInteger runs = new AtomicInteger();

    /**
     * @return 201 with the full card number in the body and in a stored header
     */
    @POST
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response charge(String body) {
        int run = runs.incrementAndGet();
        return Response.status(201)
                .header("Location", "/payments/" + CARD)
                .entity("{\"card\":\"" + CARD + "\",\"run\":" + run + "}")
                .build();
    }

    /**
     * @return how often {@link #charge} ran
     */
    @GET
    @Path("runs")
    @Produces(MediaType.TEXT_PLAIN)
    public String runs() {
        return Integer.toString(runs.get());
    }
}
