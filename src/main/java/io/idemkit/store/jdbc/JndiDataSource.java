package io.idemkit.store.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * A data source of the application's own namespace ({@code java:app/}, {@code java:module/}, {@code
 * java:comp/} but not its {@code env/}, where resource references to the server's data sources are,
 * and are bound in time) that was not in JNDI yet at deployment, looked up on first use. Payara
 * binds a data source the application defines ({@code <data-source>} in {@code web.xml},
 * {@code @DataSourceDefinition}) only after CDI has validated the deployment, so that a lookup
 * there failed the deployment of a correct application. Until the name is found, every connection
 * fails as an unreachable database, which the readiness check reports and which names the JNDI
 * name. Thread-safe.
 */
final class JndiDataSource implements DataSource {

    private final String name;
    private volatile DataSource found;

    JndiDataSource(String name) {
        this.name = name;
    }

    /**
     * @param name a JNDI name
     * @return whether it is in a namespace of the application's own, which a runtime may bind after
     *     the deployment's validation
     */
    static boolean isApplicationName(String name) {
        return name.startsWith("java:app/")
                || name.startsWith("java:module/")
                || (name.startsWith("java:comp/") && !name.startsWith("java:comp/env/"));
    }

    private DataSource target() throws SQLException {
        DataSource current = found;
        if (current != null) {
            return current;
        }
        Object bound;
        try {
            bound = new InitialContext().lookup(name);
        } catch (NamingException e) {
            throw new SQLNonTransientConnectionException(
                    "the data source " + name + " is not found in JNDI (" + e.getMessage() + ")",
                    "08001",
                    e);
        }
        if (!(bound instanceof DataSource dataSource)) {
            throw new SQLNonTransientConnectionException(
                    name + " names a " + bound.getClass().getName() + ", not a DataSource",
                    "08001");
        }
        found = dataSource;
        return dataSource;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return target().getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return target().getConnection(username, password);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return target().getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target().setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target().setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target().getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        DataSource current = found;
        if (current == null) {
            throw new SQLFeatureNotSupportedException("not looked up yet: " + name);
        }
        return current.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : target().unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || target().isWrapperFor(type);
    }

    @Override
    public String toString() {
        return "JndiDataSource[" + name + "]";
    }
}
