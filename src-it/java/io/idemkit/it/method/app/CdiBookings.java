package io.idemkit.it.method.app;

import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.List;

/** An application-scoped CDI bean, with and without {@code @Transactional}. */
@ApplicationScoped
public class CdiBookings {

    @Inject Executions executions;

    @Idempotent
    public List<Booking> book(@IdempotencyKey String key) throws InterruptedException {
        int run = executions.ran("cdi:" + key);
        Thread.sleep(300);
        return List.of(new Booking(key, run));
    }

    @Idempotent
    @Transactional
    public Booking bookInTransaction(@IdempotencyKey String key, boolean fail) {
        int run = executions.ran("tx:" + key);
        if (fail) {
            throw new IllegalStateException("rolled back on run " + run);
        }
        return new Booking(key, run);
    }

    /** A value type. */
    public record Booking(String key, int run) {}
}
