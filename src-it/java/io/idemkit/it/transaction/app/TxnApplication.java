package io.idemkit.it.transaction.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The application of the tests of completion inside the business transaction. */
@ApplicationPath("api")
public class TxnApplication extends Application {}
