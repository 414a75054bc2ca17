package io.idemkit.store.mongo;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The ClockSkew tests on the MongoDB at {@code IDEMKIT_TEST_MONGO_URI}, the pipeline path from 4.2.
 * Skipped when the variable is not set.
 */
@EnabledIfEnvironmentVariable(named = RealMongo.URI_VARIABLE, matches = ".+")
class MongoUriClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.atUri();
    }
}
