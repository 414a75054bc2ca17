package io.idemkit.it.http.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The HTTP surface's test application, under {@code /api}; it relies on scanning. */
@ApplicationPath("api")
public class HttpApplication extends Application {}
