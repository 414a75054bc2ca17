/**
 * What a REST application names to wire idemkit in: the JAX-RS features it lists in {@code
 * Application.getClasses()} when it turns JAX-RS service loading off ({@code
 * jakarta.ws.rs.loadServices=false}; otherwise the runtime finds them itself), and the OpenAPI
 * filter it names in {@code mp.openapi.filter}. Public and covered by semantic versioning, like
 * {@code io.idemkit}; each class hands its work to an internal package.
 */
package io.idemkit.rest;
