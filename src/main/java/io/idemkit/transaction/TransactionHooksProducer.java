package io.idemkit.transaction;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;
import java.lang.System.Logger.Level;

/**
 * Produces the surfaces' {@link TransactionHooks}: the JTA transaction synchronization registry's,
 * when Jakarta Transactions is there, otherwise none, and results are stored at once.
 */
@ApplicationScoped
public class TransactionHooksProducer {

    private static final System.Logger LOG =
            System.getLogger(TransactionHooksProducer.class.getName());
    private static final String JTA_REGISTRY =
            "jakarta.transaction.TransactionSynchronizationRegistry";

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
            Class.forName(JTA_REGISTRY, false, TransactionHooksProducer.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
