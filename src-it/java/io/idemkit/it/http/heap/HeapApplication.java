package io.idemkit.it.http.heap;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The heap test's application, under {@code /api}; it relies on scanning. */
@ApplicationPath("api")
public class HeapApplication extends Application {}
