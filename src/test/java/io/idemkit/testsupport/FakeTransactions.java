package io.idemkit.testsupport;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A transaction registry the test drives: its status, and the end of the transaction. */
@ApplicationScoped
public class FakeTransactions implements TransactionSynchronizationRegistry {
    public static volatile int status = Status.STATUS_NO_TRANSACTION;
    public static final List<Synchronization> synchronizations = new CopyOnWriteArrayList<>();
    public static final Map<Object, Object> resources = new ConcurrentHashMap<>();

    public static void reset() {
        status = Status.STATUS_NO_TRANSACTION;
        synchronizations.clear();
        resources.clear();
    }

    public static void end(int outcome) {
        synchronizations.forEach(Synchronization::beforeCompletion);
        status = Status.STATUS_NO_TRANSACTION;
        synchronizations.forEach(s -> s.afterCompletion(outcome));
        synchronizations.clear();
        resources.clear();
    }

    @Override
    public Object getTransactionKey() {
        return status == Status.STATUS_NO_TRANSACTION ? null : "tx";
    }

    @Override
    public void putResource(Object key, Object value) {
        resources.put(key, value);
    }

    @Override
    public Object getResource(Object key) {
        return resources.get(key);
    }

    @Override
    public void registerInterposedSynchronization(Synchronization sync) {
        if (status != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("no active transaction");
        }
        synchronizations.add(sync);
    }

    @Override
    public int getTransactionStatus() {
        return status;
    }

    @Override
    public void setRollbackOnly() {
        status = Status.STATUS_MARKED_ROLLBACK;
    }

    @Override
    public boolean getRollbackOnly() {
        return status == Status.STATUS_MARKED_ROLLBACK;
    }
}
