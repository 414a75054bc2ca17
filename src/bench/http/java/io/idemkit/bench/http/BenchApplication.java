package io.idemkit.bench.http;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The HTTP benchmark's application, under {@code /bench}. */
@ApplicationPath("bench")
public class BenchApplication extends Application {}
