package io.idemkit.it.method.problems;

import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import io.idemkit.it.method.app.Executions;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** A stateless EJB slow enough that a duplicate gives up waiting: its wait timeout is short. */
@Stateless
public class SlowBookings {

    @Inject Executions executions;

    @Idempotent(waitTimeout = "200ms")
    public String book(@IdempotencyKey String key) throws InterruptedException {
        int run = executions.ran("slow:" + key);
        Thread.sleep(3000);
        return "booked-" + run;
    }
}
