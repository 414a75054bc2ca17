package io.idemkit.store.jdbc;

import javax.sql.DataSource;

class H2RoundTripTest extends JdbcRoundTripContract {

    @Override
    protected DataSource dataSource() {
        return Databases.h2();
    }

    @Override
    protected int replayStatements() {
        return 2;
    }
}
