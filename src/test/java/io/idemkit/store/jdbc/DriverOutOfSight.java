package io.idemkit.store.jdbc;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The PostgreSQL driver as an application server's data source holds it (an Open Liberty {@code
 * <library>} referenced by {@code <jdbcDriver>}, a WildFly driver module): the real driver jar in a
 * class loader of its own, whose {@code org.postgresql} classes are not the ones the test's class
 * path holds, behind a pool-like wrapper whose connections implement only {@code java.sql}
 * interfaces and unwrap, as Open Liberty's and IronJacamar's do, by {@code Class.isInstance} on the
 * driver's connection. Statements and results are the driver's own, as a pool's give the same
 * values.
 */
final class DriverOutOfSight implements AutoCloseable {

    private final URLClassLoader driverLoader;
    private final DataSource dataSource;

    /**
     * @param unwraps whether connections unwrap to the driver's connection at all; a wrapper that
     *     does not is what the store cannot listen through
     */
    DriverOutOfSight(boolean unwraps) throws Exception {
        driverLoader =
                new URLClassLoader(
                        new URL[] {codeOf(org.postgresql.Driver.class)},
                        ClassLoader.getPlatformClassLoader());
        DataSource driver =
                (DataSource)
                        driverLoader
                                .loadClass("org.postgresql.ds.PGSimpleDataSource")
                                .getConstructor()
                                .newInstance();
        driver.getClass().getMethod("setUrl", String.class).invoke(driver, Databases.postgresUrl());
        dataSource = wrap(DataSource.class, driver, unwraps);
    }

    /**
     * @return the wrapped data source: each connection a new one of the driver's
     */
    DataSource dataSource() {
        return dataSource;
    }

    /**
     * @return the class loader of the driver, which the test's class path does not share
     */
    ClassLoader driverLoader() {
        return driverLoader;
    }

    private static <T> T wrap(Class<T> type, Object target, boolean unwraps) {
        InvocationHandler handler =
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "unwrap":
                            if (unwraps && ((Class<?>) args[0]).isInstance(target)) {
                                return target;
                            }
                            throw new SQLException("not a wrapper for " + args[0]);
                        case "isWrapperFor":
                            return unwraps && ((Class<?>) args[0]).isInstance(target);
                        default:
                            break;
                    }
                    Object answer;
                    try {
                        answer = method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (answer instanceof Connection c
                            && method.getReturnType() == Connection.class) {
                        return wrap(Connection.class, c, unwraps);
                    }
                    return answer;
                };
        return type.cast(
                Proxy.newProxyInstance(
                        DriverOutOfSight.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    /**
     * @return the jar or folder {@code type} was loaded from
     */
    static URL codeOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toUri()
                .toURL();
    }

    @Override
    public void close() throws IOException {
        driverLoader.close();
    }
}
