package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.testsupport.MapJndi;
import java.time.Duration;
import java.util.UUID;
import javax.naming.Context;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A data source the application defines is bound in JNDI on some runtimes only after CDI has
 * validated the deployment (Payara): a name in the application's own namespace that is not there
 * yet is looked up on first use, and until then the store reports its database unreachable, naming
 * it (C12). A missing server-defined name still fails the deployment. A JNDI provider of the test's
 * own binds an H2 data source when the test says so.
 */
class JdbcLateDataSourceTest {

    private JdbcStoreSettings settings;

    @BeforeEach
    void ownJndi() {
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, MapJndi.class.getName());
        settings = new JdbcStoreSettings("idem_late", true);
    }

    @AfterEach
    void clear() {
        System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
        MapJndi.BOUND.clear();
    }

    @Test
    void anApplicationNameBoundAfterTheDeployment_isLookedUpOnFirstUse() {
        String name = "java:app/jdbc/late";

        JdbcStoreOpening.Opened opened =
                JdbcStoreOpening.open(settings.withDataSourceName(name), 1024, null);

        assertThat(opened.problem()).as("the deployment goes on").isNull();
        IdempotencyStorageException before =
                catchThrowableOfType(
                        IdempotencyStorageException.class,
                        () -> opened.store().claim(key(), "fp", 1, Duration.ofMinutes(1)));
        assertThat(before.kind()).isEqualTo(IdempotencyStorageException.Kind.UNREACHABLE);
        assertThat(before.getMessage()).contains(name);

        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:late-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        MapJndi.BOUND.put(name, h2);

        assertThat(opened.store().claim(key(), "fp", 1, Duration.ofMinutes(1)).status())
                .isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void aServerNameThatIsMissing_stillFailsTheDeployment() {
        JdbcStoreOpening.Opened opened =
                JdbcStoreOpening.open(settings.withDataSourceName("jdbc/missing"), 1024, null);

        assertThat(opened.store()).isNull();
        assertThat(opened.problem()).contains("jdbc/missing").contains("not found in JNDI");
    }

    private static String key() {
        return UUID.randomUUID().toString().replace("-", "").repeat(2);
    }
}
