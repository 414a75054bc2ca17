package io.idemkit.it.method.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The method-surface test application. */
@ApplicationPath("api")
public class MethodApplication extends Application {}
