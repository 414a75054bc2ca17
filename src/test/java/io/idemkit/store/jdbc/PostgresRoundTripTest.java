package io.idemkit.store.jdbc;

import javax.sql.DataSource;

class PostgresRoundTripTest extends JdbcRoundTripContract {

    @Override
    protected DataSource dataSource() {
        return Databases.postgres();
    }

    @Override
    protected int replayStatements() {
        return 1;
    }

    /** The claim, the completion, and the notification once it committed. */
    @Override
    protected int freshStatements() {
        return 3;
    }
}
