package io.idemkit.store.jdbc;

import javax.sql.DataSource;

/** The store contract suite on in memory in this JVM. */
class H2StoreContractTest extends JdbcStoreContract {

    @Override
    protected DataSource dataSource() {
        return Databases.h2();
    }
}
