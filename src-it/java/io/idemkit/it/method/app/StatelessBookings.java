package io.idemkit.it.method.app;

import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** A stateless EJB with container-managed transactions (REQUIRED, the default). */
@Stateless
public class StatelessBookings {

    @Inject Executions executions;
    @Resource SessionContext context;

    @Idempotent
    public String book(@IdempotencyKey String key, String what) throws InterruptedException {
        int run = executions.ran("stateless:" + key);
        // Long enough that concurrent duplicates arrive while it runs.
        Thread.sleep(300);
        return "stateless-" + what + "-" + run;
    }

    @Idempotent
    public String bookThenRollBack(@IdempotencyKey String key) {
        int run = executions.ran("stateless:" + key);
        context.setRollbackOnly();
        return "rolled-back-" + run;
    }

    @Idempotent
    public String bookThenFail(@IdempotencyKey String key) {
        int run = executions.ran("stateless:" + key);
        if (run == 1) {
            throw new IllegalStateException("system exception on run " + run);
        }
        return "stateless-failed-once-" + run;
    }
}
