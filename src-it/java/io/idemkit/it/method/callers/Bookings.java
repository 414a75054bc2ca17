package io.idemkit.it.method.callers;

import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.Principal;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An application-scoped CDI bean whose key is derived from its arguments: two callers who book the
 * same seat send the same key. The booking names the caller it was made for, as a ticket would.
 */
@ApplicationScoped
public class Bookings {

    private final AtomicInteger runs = new AtomicInteger();

    @Inject Principal caller;

    @Idempotent
    public String book(String flight, String seat) {
        return "{\"bookedFor\":\""
                + callerName()
                + "\",\"flight\":\""
                + flight
                + "\",\"seat\":\""
                + seat
                + "\",\"run\":"
                + runs.incrementAndGet()
                + ",\"id\":\""
                + UUID.randomUUID()
                + "\"}";
    }

    /**
     * The name the runtime gives the caller; Weld on Liberty has no principal for an anonymous one.
     */
    private String callerName() {
        try {
            return caller.getName();
        } catch (RuntimeException e) {
            return "(no principal)";
        }
    }
}
