package io.idemkit.it.transaction.xa.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The application of the test of a completion inside a two-phase transaction. */
@ApplicationPath("api")
public class XaApplication extends Application {}
