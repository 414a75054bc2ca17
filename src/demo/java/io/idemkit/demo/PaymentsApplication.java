package io.idemkit.demo;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The demo's JAX-RS application: everything under {@code /api}, found by scanning. */
@ApplicationPath("api")
public class PaymentsApplication extends Application {}
