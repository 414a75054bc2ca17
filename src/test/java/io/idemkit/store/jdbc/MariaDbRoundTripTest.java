package io.idemkit.store.jdbc;

import javax.sql.DataSource;

class MariaDbRoundTripTest extends JdbcRoundTripContract {

    @Override
    protected DataSource dataSource() {
        return Databases.mariaDb();
    }

    @Override
    protected int replayStatements() {
        return 1;
    }
}
