package io.idemkit.it.http.filterorder;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * An application whose API-key filter has no {@code @Priority}, so that it runs after idemkit's
 * request filter (C6.10); it relies on scanning.
 */
@ApplicationPath("api")
public class FilterOrderApplication extends Application {}
