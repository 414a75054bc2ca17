package io.idemkit.cdi;

import io.idemkit.store.StoreResources;
import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the container has for a store ({@link StoreResources}): the application's beans of the types
 * the stores name, noted as the container discovers them, in whichever bean archive they are (a
 * lookup by type from the library's archive misses them on Payara); the beans the library's own
 * bean manager resolves (a {@code DataSource}); and the runtime's managed scheduler. Types are
 * compared by name, so that no bean signature of the library names a type of a driver that may be
 * absent (C8). Thread-safe.
 */
final class ContainerResources implements StoreResources {

    private final Map<String, Set<Bean<?>>> byTypeName = new ConcurrentHashMap<>();
    private volatile BeanManager beans;

    /**
     * @param typeNames the types whose beans are noted
     */
    ContainerResources(Set<String> typeNames) {
        typeNames.forEach(name -> byTypeName.put(name, ConcurrentHashMap.newKeySet()));
    }

    /** Notes an enabled {@code @Default} bean of the application, if it has a noted type. */
    void note(Bean<?> bean) {
        for (Type type : bean.getTypes()) {
            if (type instanceof Class<?> c) {
                Set<Bean<?>> found = byTypeName.get(c.getName());
                if (found != null) {
                    found.add(bean);
                }
            }
        }
    }

    /** The bean manager the resolutions and references go through, once deployment is validated. */
    void use(BeanManager manager) {
        beans = manager;
    }

    @Override
    public Count count(String typeName) {
        Set<Bean<?>> found = byTypeName.getOrDefault(typeName, Set.of());
        if (found.isEmpty()) {
            return Count.NONE;
        }
        return found.size() == 1 || found.stream().filter(Bean::isAlternative).count() == 1
                ? Count.ONE
                : Count.SEVERAL;
    }

    @Override
    public Object reference(String typeName) {
        Bean<?> bean = theOne(byTypeName.getOrDefault(typeName, Set.of()), typeName);
        Type type =
                bean.getTypes().stream()
                        .filter(t -> t instanceof Class<?> c && c.getName().equals(typeName))
                        .findFirst()
                        .orElseThrow();
        return beans.getReference(bean, type, beans.createCreationalContext(bean));
    }

    private static Bean<?> theOne(Set<Bean<?>> found, String type) {
        if (found.size() == 1) {
            return found.iterator().next();
        }
        List<Bean<?>> alternatives = found.stream().filter(Bean::isAlternative).toList();
        if (alternatives.size() == 1) {
            return alternatives.get(0);
        }
        throw new IllegalStateException("no single " + type + " bean: " + found.size());
    }

    @Override
    public Count resolvable(Class<?> type) {
        Set<Bean<?>> found = beans.getBeans(type);
        try {
            return found.isEmpty() || beans.resolve(found) == null ? Count.NONE : Count.ONE;
        } catch (AmbiguousResolutionException e) {
            return Count.SEVERAL;
        }
    }

    @Override
    public <T> T resolve(Class<T> type) {
        Bean<?> bean = beans.resolve(beans.getBeans(type));
        return type.cast(beans.getReference(bean, type, beans.createCreationalContext(bean)));
    }

    @Override
    public Optional<ScheduledExecutorService> managedScheduler() {
        return ManagedScheduler.lookUp();
    }

    @Override
    public String managedSchedulerName() {
        return ManagedScheduler.JNDI_NAME;
    }
}
