package io.idemkit.it.method.callers;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The application of the method surface's caller-scope tests. */
@ApplicationPath("api")
public class CallersApplication extends Application {}
