package io.idemkit.it.http.redact;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The redactor test's JAX-RS application, under {@code /api}; it relies on scanning. */
@ApplicationPath("api")
public class RedactApplication extends Application {}
