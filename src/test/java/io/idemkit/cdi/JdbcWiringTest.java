package io.idemkit.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a deployment chooses and opens the JDBC store (C8, C12), on an in-memory H2 database given as
 * the application's {@code DataSource} bean: only {@code idemkit.store=jdbc} picks it, a missing
 * table fails the deployment with the DDL unless {@code idemkit.jdbc.create-table}, and a missing
 * or ambiguous data source fails it too.
 */
class JdbcWiringTest {

    private final TestDeployment deployment = new TestDeployment();

    @BeforeEach
    void freshDatabase() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:wiring-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        AppDataSource.dataSource = h2;
    }

    @AfterEach
    void stop() throws SQLException {
        deployment.close();
        try (Connection c = AppDataSource.dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void storeJdbcWithCreateTable_producesTheJdbcStoreOnTheConfiguredTable() throws SQLException {
        deployment
                .set("idemkit.store", "jdbc")
                .set("idemkit.jdbc.table", "idem")
                .set("idemkit.jdbc.create-table", "true");

        IdempotencyStore store =
                deployment.start(AppDataSource.class).select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("jdbc");
        assertThat(store.claim("k".repeat(64), "fp", 1, Duration.ofSeconds(30)).status())
                .isEqualTo(ClaimStatus.NEW);
        try (Connection c = AppDataSource.dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM idem")) {
            rows.next();
            assertThat(rows.getInt(1)).isEqualTo(1);
        }
    }

    @Test
    void storeJdbcWithoutTheTable_failsTheDeploymentWithTheDdlToRun() {
        deployment.set("idemkit.store", "jdbc");

        assertThatThrownBy(() -> deployment.start(AppDataSource.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("idemkit.store=jdbc: The JDBC store's table idemkit_records")
                .hasMessageContaining("CREATE TABLE IF NOT EXISTS idemkit_records (");
    }

    @Test
    void completionInTheTransaction_withoutTheBusinessDataSource_failsTheDeployment() {
        deployment
                .set("idemkit.store", "jdbc")
                .set("idemkit.jdbc.create-table", "true")
                .set("idemkit.scope-mode", "single-tenant");

        assertThatThrownBy(() -> deployment.start(AppDataSource.class, InTransactionLedger.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("@Idempotent(completion=in-transaction) on ")
                .hasMessageContaining(
                        "idemkit.jdbc.transaction-datasource is not set: name the JTA data source");
    }

    @Test
    void aBusinessDataSourceNameThatIsNotBound_failsTheDeployment() {
        deployment
                .set("idemkit.store", "jdbc")
                .set("idemkit.jdbc.create-table", "true")
                .set("idemkit.jdbc.transaction-datasource", "java:comp/env/jdbc/business");

        assertThatThrownBy(() -> deployment.start(AppDataSource.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "idemkit.jdbc.transaction-datasource=java:comp/env/jdbc/business is not"
                                + " found in JNDI");
    }

    @Test
    void oneJndiNameForBothDataSources_failsTheDeploymentNamingBothSettings() {
        // C13: the store's own data source is not enlisted, so a completion on it commits alone.
        deployment
                .set("idemkit.store", "jdbc")
                .set("idemkit.jdbc.datasource", "jdbc/shop")
                .set("idemkit.jdbc.transaction-datasource", "jdbc/shop");

        assertThatThrownBy(() -> deployment.start(AppDataSource.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid idemkit.jdbc.transaction-datasource=jdbc/shop: must not be"
                                + " idemkit.jdbc.datasource as well");
    }

    /** A bean that completes its record inside its transaction. */
    @ApplicationScoped
    public static class InTransactionLedger {
        @Idempotent(completion = "in-transaction")
        @Transactional
        public String post(@IdempotencyKey String key) {
            return key;
        }
    }

    @Test
    void aDataSourceBean_isNotUsedUnlessTheJdbcStoreIsChosen() {
        IdempotencyStore store =
                deployment.start(AppDataSource.class).select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("memory");
    }

    @Test
    void storeJdbcWithoutADataSource_failsTheDeployment() {
        deployment.set("idemkit.store", "jdbc");

        assertThatThrownBy(deployment::start)
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "idemkit.store=jdbc needs idemkit.jdbc.datasource (a JNDI name) or a"
                                + " DataSource bean; none is there.");
    }

    @Test
    void storeJdbcWithSeveralDataSourceBeans_failsTheDeploymentAskingForTheJndiName() {
        deployment.set("idemkit.store", "jdbc");

        assertThatThrownBy(() -> deployment.start(AppDataSource.class, SecondDataSource.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "idemkit.store=jdbc, but there are several DataSource beans: set"
                                + " idemkit.jdbc.datasource to a JNDI name to choose.");
    }

    @Test
    void jndiNameThatIsNotBound_failsTheDeployment() {
        deployment
                .set("idemkit.store", "jdbc")
                .set("idemkit.jdbc.datasource", "java:comp/env/jdbc/missing");

        assertThatThrownBy(() -> deployment.start(AppDataSource.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "idemkit.store=jdbc: idemkit.jdbc.datasource=java:comp/env/jdbc/missing is"
                                + " not found in JNDI");
    }

    @Test
    void invalidTableName_failsTheDeploymentInTheHouseFormat() {
        deployment.set("idemkit.store", "jdbc").set("idemkit.jdbc.table", "idem; DROP");

        assertThatThrownBy(() -> deployment.start(AppDataSource.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid idemkit.jdbc.table=idem; DROP: must be a table name");
    }

    @Test
    void aPurgeInterval_purgesExpiredRowsWithNoCall_andTheApplicationsStopEndsIt()
            throws SQLException {
        deployment
                .set("idemkit.store", "jdbc")
                .set("idemkit.jdbc.create-table", "true")
                .set("idemkit.jdbc.purge-interval", "50ms");
        IdempotencyStore store =
                deployment.start(AppDataSource.class).select(IdempotencyStore.class).get();
        // A result kept 1 ms, expired at once (a lapsed claim is kept an hour for its owner).
        store.complete(
                "e".repeat(64),
                store.claim("e".repeat(64), "fp", 1, Duration.ofMinutes(1)).token(),
                new StoredResult(200, List.of(), new byte[0]),
                Duration.ofMillis(1));
        store.claim("l".repeat(64), "fp", 1, Duration.ofHours(1));

        await().atMost(Duration.ofSeconds(10)).until(() -> rows("idemkit_records") == 1);
        assertThat(purgeThreads()).as("no managed executor here: its own thread").isPositive();

        deployment.close();

        await().atMost(Duration.ofSeconds(10)).until(() -> purgeThreads() == 0);
    }

    @Test
    void aNegativePurgeInterval_failsTheDeploymentInTheHouseFormat() {
        deployment.set("idemkit.store", "jdbc").set("idemkit.jdbc.purge-interval", "-5s");

        assertThatThrownBy(() -> deployment.start(AppDataSource.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid idemkit.jdbc.purge-interval=-5s: must not be negative");
    }

    private static int rows(String table) throws SQLException {
        try (Connection c = AppDataSource.dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static long purgeThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals("idemkit-jdbc-purge"))
                .count();
    }

    /** An application's data source, as a CDI bean. */
    @ApplicationScoped
    public static class AppDataSource {
        static DataSource dataSource;

        @Produces
        @ApplicationScoped
        DataSource dataSource() {
            return dataSource;
        }
    }

    /** A second DataSource bean, which makes the choice ambiguous. */
    @ApplicationScoped
    public static class SecondDataSource {
        @Produces
        @ApplicationScoped
        DataSource dataSource() {
            return AppDataSource.dataSource;
        }
    }
}
