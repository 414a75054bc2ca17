/**
 * Internal: no compatibility guaranteed, except the filter's class name, which an application names
 * in {@code mp.openapi.filter}.
 *
 * <p>Describes the HTTP surface in the application's OpenAPI document (MicroProfile OpenAPI;
 * C6.12), when the application asks for it: the key header of each {@code @Idempotent} resource
 * method, the problem responses it may answer (C6.4), and the replay and expiry headers of its
 * successes (C6.2, C6.8). Optional: it never fails a deployment, and without MicroProfile OpenAPI
 * nothing here is loaded.
 */
package io.idemkit.openapi;
