package io.idemkit.it.http.filterorder;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * An application whose API-key filter and access log have no {@code @Priority} (C6.10); it relies
 * on scanning.
 */
@ApplicationPath("api")
public class FilterOrderApplication extends Application {}
