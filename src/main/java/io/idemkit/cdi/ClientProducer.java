package io.idemkit.cdi;

import io.idemkit.client.IdempotentRetry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;

/** Makes the client's retry executor injectable, with the settings validated at deployment. */
@ApplicationScoped
public class ClientProducer {

    /**
     * {@code @Dependent}: the executor is final and immutable, so it can have no client proxy and
     * needs none.
     */
    @Produces
    @Dependent
    IdempotentRetry retry() {
        return IdempotentRetry.fromConfig();
    }
}
