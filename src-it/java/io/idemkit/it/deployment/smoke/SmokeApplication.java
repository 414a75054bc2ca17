package io.idemkit.it.deployment.smoke;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The smoke test's JAX-RS application, under {@code /api}. */
@ApplicationPath("api")
public class SmokeApplication extends Application {}
