package io.idemkit.store.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A data source that passes every call to a real one and counts the statements executed through it:
 * each {@code execute}, {@code executeQuery}, {@code executeUpdate} or {@code executeLargeUpdate}
 * of a statement it handed out is one round trip to the database. It changes no behaviour of the
 * driver.
 */
final class CountingDataSource {

    private final AtomicInteger executed = new AtomicInteger();
    private final DataSource counting;

    CountingDataSource(DataSource real) {
        counting = proxy(DataSource.class, real);
    }

    DataSource dataSource() {
        return counting;
    }

    int executed() {
        return executed.get();
    }

    void reset() {
        executed.set(0);
    }

    private <T> T proxy(Class<T> type, T target) {
        InvocationHandler handler =
                (p, method, args) -> {
                    if (method.getName().startsWith("execute") && target instanceof Statement) {
                        executed.incrementAndGet();
                    }
                    Object answer = invoke(method, target, args);
                    if (answer instanceof Connection c
                            && method.getReturnType() == Connection.class) {
                        return proxy(Connection.class, c);
                    }
                    if (answer instanceof Statement s
                            && Statement.class.isAssignableFrom(method.getReturnType())) {
                        @SuppressWarnings("unchecked")
                        Class<Statement> kind = (Class<Statement>) method.getReturnType();
                        return proxy(kind, s);
                    }
                    return answer;
                };
        return type.cast(
                Proxy.newProxyInstance(
                        CountingDataSource.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
