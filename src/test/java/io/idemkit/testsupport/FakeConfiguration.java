package io.idemkit.testsupport;

import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Feature;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JAX-RS application's configuration as a runtime reports it: the provider classes and instances
 * registered, and the contracts each was registered for, with their priorities. A class registered
 * without contracts reports an empty map, as RESTEasy does for a class it was never told about.
 */
public final class FakeConfiguration implements Configuration {

    private final Set<Class<?>> classes = new LinkedHashSet<>();
    private final Set<Object> instances = new LinkedHashSet<>();
    private final Map<Class<?>, Map<Class<?>, Integer>> contracts = new HashMap<>();

    /** A class registered without contracts of its own: the runtime reads its annotations. */
    public FakeConfiguration register(Class<?> type) {
        classes.add(type);
        return this;
    }

    /** A class registered for the given contracts, with their priorities. */
    public FakeConfiguration register(Class<?> type, Map<Class<?>, Integer> priorities) {
        classes.add(type);
        contracts.put(type, Map.copyOf(priorities));
        return this;
    }

    /** An instance registered without contracts of its own. */
    public FakeConfiguration registerInstance(Object instance) {
        instances.add(instance);
        return this;
    }

    @Override
    public RuntimeType getRuntimeType() {
        return RuntimeType.SERVER;
    }

    @Override
    public Map<String, Object> getProperties() {
        return Map.of();
    }

    @Override
    public Object getProperty(String name) {
        return null;
    }

    @Override
    public Collection<String> getPropertyNames() {
        return List.of();
    }

    @Override
    public boolean isEnabled(Feature feature) {
        return false;
    }

    @Override
    public boolean isEnabled(Class<? extends Feature> featureClass) {
        return false;
    }

    @Override
    public boolean isRegistered(Object component) {
        return instances.contains(component);
    }

    @Override
    public boolean isRegistered(Class<?> componentClass) {
        return classes.contains(componentClass);
    }

    @Override
    public Map<Class<?>, Integer> getContracts(Class<?> componentClass) {
        return contracts.getOrDefault(componentClass, Map.of());
    }

    @Override
    public Set<Class<?>> getClasses() {
        return Set.copyOf(classes);
    }

    @Override
    public Set<Object> getInstances() {
        return Set.copyOf(instances);
    }
}
