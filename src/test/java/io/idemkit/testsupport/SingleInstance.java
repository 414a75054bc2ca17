package io.idemkit.testsupport;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

/**
 * A CDI {@link Instance} with exactly one bean, made by {@code factory} on each {@link #get()}, for
 * a class under test that takes an {@code Instance} in its constructor. Selecting further is not
 * supported.
 *
 * @param <T> the bean type
 */
public final class SingleInstance<T> implements Instance<T> {

    private final Supplier<T> factory;

    public SingleInstance(Supplier<T> factory) {
        this.factory = factory;
    }

    @Override
    public T get() {
        return factory.get();
    }

    @Override
    public Iterator<T> iterator() {
        return List.of(get()).iterator();
    }

    @Override
    public Instance<T> select(Annotation... qualifiers) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <U extends T> Instance<U> select(Class<U> subtype, Annotation... qualifiers) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <U extends T> Instance<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean isUnsatisfied() {
        return false;
    }

    @Override
    public boolean isAmbiguous() {
        return false;
    }

    @Override
    public void destroy(T instance) {}

    @Override
    public Handle<T> getHandle() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Iterable<? extends Handle<T>> handles() {
        throw new UnsupportedOperationException();
    }
}
