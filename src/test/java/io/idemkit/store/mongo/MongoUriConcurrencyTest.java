package io.idemkit.store.mongo;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The Concurrency tests on the MongoDB at {@code IDEMKIT_TEST_MONGO_URI}, the pipeline path from
 * 4.2. Skipped when the variable is not set.
 */
@EnabledIfEnvironmentVariable(named = RealMongo.URI_VARIABLE, matches = ".+")
class MongoUriConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.atUri();
    }
}
