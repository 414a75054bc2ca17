package io.idemkit.rest;

import io.idemkit.http.FilterBinding;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Binds idemkit's filter pair to every resource method that carries {@code @Idempotent}, on the
 * method or its class, and to no other: endpoints without the annotation pay nothing (C6).
 *
 * <p>Found by JAX-RS 3.1's service-loader discovery of dynamic features ({@code
 * META-INF/services/jakarta.ws.rs.container.DynamicFeature}), which works whether the application
 * relies on scanning or lists its classes in {@code Application.getClasses()}. An application that
 * turns service loading off ({@code jakarta.ws.rs.loadServices=false}) lists this class there.
 */
public final class IdempotencyFeature implements DynamicFeature {

    private final FilterBinding binding = new FilterBinding();

    /**
     * The application's configuration, where the runtime injects it: Jersey lists the application's
     * providers only here, not in a dynamic feature's {@code FeatureContext}.
     */
    @Context private Configuration application;

    /** For the runtime, which creates it by reflection or through the service loader. */
    public IdempotencyFeature() {}

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        binding.configure(resource, context, application);
    }
}
