package io.idemkit.interceptor;

import io.idemkit.spi.MethodResultCodec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;
import java.lang.System.Logger.Level;

/**
 * Produces what the interceptor needs from its environment: the default result codec (JSON-B),
 * which an enabled alternative {@link MethodResultCodec} bean replaces, and the transaction hooks,
 * when Jakarta Transactions is there.
 */
@ApplicationScoped
public class InterceptorProducer {

    private static final System.Logger LOG = System.getLogger(InterceptorProducer.class.getName());
    private static final String JTA_REGISTRY =
            "jakarta.transaction.TransactionSynchronizationRegistry";

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

    @Produces
    @Singleton
    TransactionHooks transactions(BeanManager beans) {
        if (!jtaPresent()) {
            LOG.log(Level.DEBUG, "idemkit: no Jakarta Transactions, results are stored at once");
            return TransactionHooks.NONE;
        }
        TransactionHooks hooks = JtaTransactionHooks.find(beans).orElse(TransactionHooks.NONE);
        LOG.log(
                Level.DEBUG,
                hooks == TransactionHooks.NONE
                        ? "idemkit: no TransactionSynchronizationRegistry, results are stored at once"
                        : "idemkit completes records after their transaction commits");
        return hooks;
    }

    private static boolean jtaPresent() {
        try {
            Class.forName(JTA_REGISTRY, false, InterceptorProducer.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
