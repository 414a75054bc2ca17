package io.idemkit.store.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The store contract suite against the MongoDB at {@code IDEMKIT_TEST_MONGO_URI} (any version from
 * 4.4, standalone, replica set or sharded), with {@code majority} write concern. Skipped when the
 * variable is not set. Each test uses, then drops, its own collection in database {@code
 * idemkit_test}.
 */
@EnabledIfEnvironmentVariable(named = MongoUriStoreContractTest.VARIABLE, matches = ".+")
@AddLifecycleHook(MongoUriStoreContractTest.UriRequired.class)
class MongoUriStoreContractTest extends MongoStoreContract {

    static final String VARIABLE = "IDEMKIT_TEST_MONGO_URI";

    private static MongoClient client;

    @BeforeAll
    @BeforeContainer
    static void connect() {
        client = MongoClients.create(System.getenv(VARIABLE));
    }

    @AfterAll
    @AfterContainer
    static void disconnect() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    /** jqwik, which runs the contract's property, ignores {@code @EnabledIfEnvironmentVariable}. */
    static final class UriRequired implements SkipExecutionHook {
        @Override
        public SkipResult shouldBeSkipped(LifecycleContext context) {
            String uri = System.getenv(VARIABLE);
            return uri != null && !uri.isEmpty()
                    ? SkipResult.doNotSkip()
                    : SkipResult.skip(VARIABLE + " is not set");
        }
    }

    @Override
    protected MongoClient client() {
        return client;
    }

    @Override
    protected MongoStoreSettings baseSettings() {
        return MongoStoreSettings.defaults().withWriteConcern("majority");
    }

    @Override
    protected boolean serverRunsPipelines() {
        return true;
    }
}
