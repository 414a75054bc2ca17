package io.idemkit.transaction;

import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Transaction hooks on Jakarta Transactions' {@link TransactionSynchronizationRegistry}: an
 * interposed synchronization, which runs after the container's own (JPA flushes included), reports
 * the transaction's end. Loaded only when the JTA API is present.
 */
final class JtaTransactionHooks implements TransactionHooks {

    /** Where Jakarta EE binds the registry. */
    static final String REGISTRY = "java:comp/TransactionSynchronizationRegistry";

    /** The prefix of the registry's resource that marks a record the transaction completed. */
    private static final String HELD = JtaTransactionHooks.class.getName() + ".held:";

    private final TransactionSynchronizationRegistry registry;

    private JtaTransactionHooks(TransactionSynchronizationRegistry registry) {
        this.registry = registry;
    }

    /**
     * @param beans to find a registry bean (some runtimes offer one)
     * @return hooks on the registry: a CDI bean if there is one, else the one in JNDI
     */
    static Optional<TransactionHooks> find(BeanManager beans) {
        Set<Bean<?>> candidates = beans.getBeans(TransactionSynchronizationRegistry.class);
        if (!candidates.isEmpty()) {
            Bean<?> bean = beans.resolve(candidates);
            if (bean != null) {
                Object registry =
                        beans.getReference(
                                bean,
                                TransactionSynchronizationRegistry.class,
                                beans.createCreationalContext(bean));
                return Optional.of(
                        new JtaTransactionHooks((TransactionSynchronizationRegistry) registry));
            }
        }
        try {
            Object found = new InitialContext().lookup(REGISTRY);
            if (found instanceof TransactionSynchronizationRegistry registry) {
                return Optional.of(new JtaTransactionHooks(registry));
            }
        } catch (NamingException | RuntimeException e) {
            // No JNDI, or no transaction manager.
        }
        return Optional.empty();
    }

    @Override
    public Deferral deferToCompletion(Consumer<Boolean> afterCompletion) {
        int status = registry.getTransactionStatus();
        if (status == Status.STATUS_MARKED_ROLLBACK
                || status == Status.STATUS_ROLLING_BACK
                || status == Status.STATUS_ROLLEDBACK) {
            return Deferral.ROLLING_BACK;
        }
        if (status != Status.STATUS_ACTIVE) {
            return Deferral.NONE;
        }
        registry.registerInterposedSynchronization(
                new Synchronization() {
                    @Override
                    public void beforeCompletion() {}

                    @Override
                    public void afterCompletion(int outcome) {
                        afterCompletion.accept(outcome == Status.STATUS_COMMITTED);
                    }
                });
        return Deferral.DEFERRED;
    }

    @Override
    public boolean markRollbackOnly() {
        int status = registry.getTransactionStatus();
        if (status == Status.STATUS_ACTIVE || status == Status.STATUS_MARKED_ROLLBACK) {
            registry.setRollbackOnly();
            return true;
        }
        return false;
    }

    @Override
    public boolean inActiveTransaction() {
        return registry.getTransactionStatus() == Status.STATUS_ACTIVE;
    }

    /** A resource of the transaction itself: it ends with the transaction, commit or rollback. */
    @Override
    public void holdRecord(String effectiveKey) {
        registry.putResource(HELD + effectiveKey, Boolean.TRUE);
    }

    @Override
    public boolean holdsRecord(String effectiveKey) {
        return registry.getTransactionKey() != null
                && registry.getResource(HELD + effectiveKey) != null;
    }
}
