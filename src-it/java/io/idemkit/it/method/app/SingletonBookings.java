package io.idemkit.it.method.app;

import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import jakarta.inject.Inject;

/** A singleton EJB whose method admits concurrent callers. */
@Singleton
public class SingletonBookings {

    @Inject Executions executions;

    @Idempotent
    @Lock(LockType.READ)
    public String book(@IdempotencyKey String key) throws InterruptedException {
        int run = executions.ran("singleton:" + key);
        Thread.sleep(300);
        return "singleton-" + run;
    }
}
