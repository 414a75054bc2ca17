package io.idemkit.it.deployment.wiring;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The wiring test's JAX-RS application, under {@code /api}. */
@ApplicationPath("api")
public class WiringApplication extends Application {}
