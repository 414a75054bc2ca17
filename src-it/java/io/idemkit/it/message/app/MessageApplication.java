package io.idemkit.it.message.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The message test application's JAX-RS root, through which the tests send and count. */
@ApplicationPath("api")
public class MessageApplication extends Application {}
