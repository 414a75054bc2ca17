package io.idemkit.store.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * What a JTA data source hands out inside a transaction, without a transaction manager: every
 * {@code getConnection()} returns a handle on the connection that carries the caller's transaction
 * at that moment, and closing the handle leaves that connection and its transaction open.
 */
final class EnlistedConnections {

    private EnlistedConnections() {}

    /**
     * @param current the connection of the caller's transaction, asked at each {@code
     *     getConnection()} (a fixed one, or the calling thread's)
     * @return a data source of handles on it
     */
    static DataSource of(Supplier<Connection> current) {
        return (DataSource)
                Proxy.newProxyInstance(
                        DataSource.class.getClassLoader(),
                        new Class<?>[] {DataSource.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("getConnection")) {
                                return handle(current.get());
                            }
                            throw new UnsupportedOperationException(method.getName());
                        });
    }

    private static Connection handle(Connection held) {
        if (held == null) {
            throw new IllegalStateException("no transaction on this thread");
        }
        return (Connection)
                Proxy.newProxyInstance(
                        Connection.class.getClassLoader(),
                        new Class<?>[] {Connection.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("close")) {
                                return null;
                            }
                            try {
                                return method.invoke(held, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
    }
}
