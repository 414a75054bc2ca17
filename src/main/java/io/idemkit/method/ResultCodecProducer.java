package io.idemkit.method;

import io.idemkit.spi.MethodResultCodec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Produces the method surface's default result codec (JSON-B), which an enabled alternative {@link
 * MethodResultCodec} bean replaces.
 */
@ApplicationScoped
public class ResultCodecProducer {

    @Produces
    @Singleton
    MethodResultCodec codec() {
        return new JsonbResultCodec();
    }

    void close(@Disposes MethodResultCodec codec) {
        if (codec instanceof JsonbResultCodec own) {
            own.close();
        }
    }
}
