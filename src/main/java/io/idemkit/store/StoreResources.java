package io.idemkit.store;

import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the container has for a store, handed to its {@link StoreFactory} by the CDI glue: the
 * application's beans a store may be opened on, and the runtime's managed scheduler. Types a
 * store's driver brings are named as strings, so that no class the container loads names an absent
 * driver's type.
 *
 * <p>Internal: no compatibility guaranteed.
 */
public interface StoreResources {

    /** How many beans of a type the application has. */
    enum Count {
        /** None. */
        NONE,
        /** One, or one enabled alternative among several. */
        ONE,
        /** Several, and none of them wins. */
        SEVERAL
    }

    /**
     * @param typeName a type a factory listed in {@link StoreFactory#beanTypes()}
     * @return how many of the application's enabled {@code @Default} beans have it, in whichever
     *     bean archive they are
     */
    Count count(String typeName);

    /**
     * @param typeName a type whose {@link #count} is {@link Count#ONE}
     * @return a reference to that bean, an instance of the type
     * @throws IllegalStateException when there is none, or several
     */
    Object reference(String typeName);

    /**
     * @param type a type the library's own bean manager resolves, such as {@code DataSource}
     * @return how many beans it resolves to
     */
    Count resolvable(Class<?> type);

    /**
     * @param type a type whose {@link #resolvable} is {@link Count#ONE}
     * @param <T> the type
     * @return a reference to that bean
     */
    <T> T resolve(Class<T> type);

    /**
     * @return the runtime's default managed scheduled executor (Jakarta Concurrency), or empty
     */
    Optional<ScheduledExecutorService> managedScheduler();

    /**
     * @return where the managed scheduler is bound, for a log line that says where a task runs
     */
    String managedSchedulerName();
}
