package io.idemkit.store.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A data source that passes every call to a real one, and watches two things of the store on it:
 * how many reads of a record ({@link RecordStatements#selectRow}, the poll of {@code
 * awaitCompletion}) have returned, and whether a {@code LISTEN} may run ({@link #blockListen}: it
 * then fails as a lost connection does). Connections still unwrap to the driver's own.
 */
final class WatchedReads {

    private final DataSource watched;
    private final AtomicInteger reads = new AtomicInteger();
    private volatile Map<Integer, CountDownLatch> latches = Map.of();
    private volatile boolean listenBlocked;

    WatchedReads(DataSource real) {
        watched = proxy(DataSource.class, real, false);
    }

    DataSource dataSource() {
        return watched;
    }

    /**
     * Forgets the reads so far, and counts them again from 1.
     *
     * @param n the reads to wait for
     * @return for each, a latch that opens once that read has returned
     */
    Map<Integer, CountDownLatch> watchFor(int... n) {
        reads.set(0);
        Map<Integer, CountDownLatch> watching = new HashMap<>();
        for (int read : n) {
            watching.put(read, new CountDownLatch(1));
        }
        latches = watching;
        return watching;
    }

    int reads() {
        return reads.get();
    }

    void blockListen(boolean blocked) {
        listenBlocked = blocked;
    }

    private <T> T proxy(Class<T> type, T target, boolean isRead) {
        InvocationHandler handler =
                (p, method, args) -> {
                    if (listenBlocked
                            && target instanceof Statement
                            && method.getName().equals("execute")
                            && args != null
                            && args[0] instanceof String sql
                            && sql.startsWith("LISTEN")) {
                        throw new SQLException("LISTEN blocked by the test", "08006");
                    }
                    Object answer = invoke(method, target, args);
                    if (isRead && method.getName().equals("executeQuery")) {
                        CountDownLatch reached = latches.get(reads.incrementAndGet());
                        if (reached != null) {
                            reached.countDown();
                        }
                    }
                    if (answer instanceof Connection c
                            && method.getReturnType() == Connection.class) {
                        return proxy(Connection.class, c, false);
                    }
                    if (answer instanceof PreparedStatement ps
                            && method.getReturnType() == PreparedStatement.class) {
                        boolean read =
                                args != null
                                        && args[0] instanceof String sql
                                        && sql.startsWith("SELECT CASE WHEN lease_until");
                        return proxy(PreparedStatement.class, ps, read);
                    }
                    if (answer instanceof Statement s
                            && method.getReturnType() == Statement.class) {
                        return proxy(Statement.class, s, false);
                    }
                    return answer;
                };
        return type.cast(
                Proxy.newProxyInstance(
                        WatchedReads.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
