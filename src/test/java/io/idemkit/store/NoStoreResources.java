package io.idemkit.store;

import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/** A container without beans of the stores' types and without a managed scheduler. */
final class NoStoreResources implements StoreResources {

    @Override
    public Count count(String typeName) {
        return Count.NONE;
    }

    @Override
    public Object reference(String typeName) {
        throw new IllegalStateException("no " + typeName);
    }

    @Override
    public Count resolvable(Class<?> type) {
        return Count.NONE;
    }

    @Override
    public <T> T resolve(Class<T> type) {
        throw new IllegalStateException("no " + type);
    }

    @Override
    public Optional<ScheduledExecutorService> managedScheduler() {
        return Optional.empty();
    }

    @Override
    public String managedSchedulerName() {
        return "none";
    }
}
