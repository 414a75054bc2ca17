package io.idemkit.it.transaction.slowcommit;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The slow-commit test application. */
@ApplicationPath("api")
public class SlowCommitApplication extends Application {}
