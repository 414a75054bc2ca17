package io.idemkit.it.method.problems;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The application whose resource calls {@code @Idempotent} beans that throw (C7.5). */
@ApplicationPath("api")
public class ProblemsApplication extends Application {}
