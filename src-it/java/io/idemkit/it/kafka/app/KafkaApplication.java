package io.idemkit.it.kafka.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The test application's REST root, for {@link EffectsResource}. */
@ApplicationPath("api")
public class KafkaApplication extends Application {}
