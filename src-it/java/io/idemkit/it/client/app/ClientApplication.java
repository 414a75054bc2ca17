package io.idemkit.it.client.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * The client test application, under {@code /api}: an idempotent API ({@link ChargesResource}) and
 * a caller of it inside the same server ({@link Checkout}, driven by {@link DriveResource}).
 */
@ApplicationPath("api")
public class ClientApplication extends Application {}
