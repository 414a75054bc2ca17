package io.idemkit.store.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.BiConsumer;

/**
 * The PostgreSQL driver's notification calls, reached by reflection through the class loader of the
 * driver that made the store's connections, so that the library links against no {@code
 * org.postgresql} class (C4.3, C12).
 *
 * <p>An application server keeps a server-defined data source's driver out of the application's
 * sight (Open Liberty's {@code <library>} referenced by {@code <jdbcDriver>}, WildFly's driver
 * module): there the application cannot load {@code org.postgresql.PGConnection}, or loads a copy
 * the pool's connections are not instances of. The pools unwrap by {@code Class.isInstance}, so the
 * driver's own interface, loaded from the driver's own class loader, unwraps them. That loader is
 * found through plain JDBC: {@code ResultSet.getObject} of a {@code json} value returns an {@code
 * org.postgresql.util.PGobject}, loaded by it. The interface the library's own class loader sees is
 * tried first (the application sees the driver: no extra round trip). Immutable, thread-safe.
 */
final class PgDriverAccess {

    private static final String CONNECTION = "org.postgresql.PGConnection";
    private static final String NOTIFICATION = "org.postgresql.PGNotification";

    /** A value the driver returns as an object of its own class ({@code PGobject}). */
    static final String DRIVER_OBJECT_QUERY = "SELECT '{}'::json";

    private final Class<?> connectionType;
    private final Method getNotifications;
    private final Method getPending;
    private final Method getName;
    private final Method getParameter;

    private PgDriverAccess(Class<?> connectionType, Class<?> notificationType)
            throws NoSuchMethodException {
        this.connectionType = connectionType;
        this.getNotifications = connectionType.getMethod("getNotifications", int.class);
        this.getPending = connectionType.getMethod("getNotifications");
        this.getName = notificationType.getMethod("getName");
        this.getParameter = notificationType.getMethod("getParameter");
    }

    /** Why no access was found: for the one warning, never a driver's message (C4.11). */
    static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * Finds the driver's interface that {@code c} unwraps to: the one the library's class loader
     * sees, else the one of the loader of the driver that made {@code c}.
     *
     * @param c a connection of the store's data source, on PostgreSQL
     * @return the access to its driver's notifications
     * @throws Unavailable when {@code c} unwraps to neither
     * @throws SQLException when {@code c} fails
     */
    static PgDriverAccess of(Connection c) throws SQLException, Unavailable {
        PgDriverAccess own = load(PgDriverAccess.class.getClassLoader());
        if (own != null && c.isWrapperFor(own.connectionType)) {
            return own;
        }
        ClassLoader driver = driverLoader(c);
        if (driver != null && (own == null || driver != own.connectionType.getClassLoader())) {
            PgDriverAccess theirs = load(driver);
            if (theirs != null && c.isWrapperFor(theirs.connectionType)) {
                return theirs;
            }
        }
        throw new Unavailable(
                (own == null
                                ? "the library cannot see the driver, "
                                : "the library sees another copy of the driver, ")
                        + (driver == null
                                ? "and the connections show no class of the driver's"
                                : "and not even the driver's own interface unwraps them")
                        + "; connection class "
                        + c.getClass().getName());
    }

    /**
     * @return the driver's interfaces as {@code loader} sees them, or {@code null}
     */
    private static PgDriverAccess load(ClassLoader loader) {
        try {
            return new PgDriverAccess(
                    Class.forName(CONNECTION, false, loader),
                    Class.forName(NOTIFICATION, false, loader));
        } catch (ClassNotFoundException | NoSuchMethodException | LinkageError e) {
            return null;
        }
    }

    /**
     * The class loader of the driver that made {@code c}, or {@code null} if none shows: a failure
     * of this probe leaves the store polling, never fails its start.
     */
    private static ClassLoader driverLoader(Connection c) {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(DRIVER_OBJECT_QUERY)) {
            Object value = r.next() ? r.getObject(1) : null;
            return value == null ? null : value.getClass().getClassLoader();
        } catch (SQLException | RuntimeException e) {
            return null;
        }
    }

    /**
     * @param c a connection that {@link #of} found access to
     * @return the driver's connection, to read notifications from
     */
    Object unwrap(Connection c) throws SQLException {
        return c.unwrap(connectionType);
    }

    /**
     * Reads the notifications that arrived, blocking up to {@code millis} for the first.
     *
     * @param driverConnection what {@link #unwrap} returned
     * @param millis how long to block at most
     * @param each takes each notification's channel and payload
     * @throws SQLException when the connection fails
     */
    void receive(Object driverConnection, int millis, BiConsumer<String, String> each)
            throws SQLException {
        Object received = invoke(getNotifications, driverConnection, millis);
        if (received instanceof Object[] notifications) {
            for (Object n : notifications) {
                each.accept((String) invoke(getName, n), (String) invoke(getParameter, n));
            }
        }
    }

    /** Drops what arrived, without blocking. */
    void drain(Object driverConnection) throws SQLException {
        invoke(getPending, driverConnection);
    }

    private static Object invoke(Method method, Object target, Object... args) throws SQLException {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException sql) {
                throw sql;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
