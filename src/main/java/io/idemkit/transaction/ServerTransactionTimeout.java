package io.idemkit.transaction;

import io.idemkit.config.TransactionTimeout;
import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.naming.InitialContext;

/**
 * Reads the JTA transaction timeout that a new transaction gets on this server, for the lease rule
 * of message-driven beans (C11.4). Jakarta Transactions has no getter for it, so each runtime is
 * asked through what it lets an application reach, reflectively, with no compile dependency on any
 * runtime:
 *
 * <ul>
 *   <li><b>Open Liberty</b>: its {@code UOWManager} (an IBM API, {@code
 *       java:comp/websphere/UOWManager}) runs an empty global transaction and asks it for its
 *       timeout ({@code getUOWTimeout()}): the {@code transaction} element's {@code
 *       totalTranLifetimeTimeout}, capped by its {@code maximumTransactionTimeout}.
 *   <li><b>WildFly</b>: the transaction manager at {@code java:jboss/TransactionManager} (the
 *       WildFly transaction client's {@code ContextTransactionManager}) gives the timeout a new
 *       transaction of this thread gets: the transactions subsystem's {@code default-timeout}.
 *   <li><b>Payara and GlassFish</b>: the transaction manager at {@code
 *       java:appserver/TransactionManager} begins a transaction, gives its remaining time, which is
 *       its whole timeout at once ({@code 0}: none), and rolls it back.
 * </ul>
 *
 * A runtime-specific timeout of one bean (an activation-config property, a vendor descriptor) is
 * not seen: {@code idemkit.message.transaction-timeout} says it. Called once, at deployment, and
 * only when an application has an {@code Idempotent} message-driven bean; whatever fails makes the
 * answer empty, never the deployment.
 */
public final class ServerTransactionTimeout {

    /** Where Open Liberty binds its unit-of-work manager. */
    static final String LIBERTY_UOW_MANAGER = "java:comp/websphere/UOWManager";

    /** Where WildFly binds its transaction manager. */
    public static final String WILDFLY_TRANSACTION_MANAGER = "java:jboss/TransactionManager";

    /** Where Payara and GlassFish bind theirs. */
    static final String PAYARA_TRANSACTION_MANAGER = "java:appserver/TransactionManager";

    private static final System.Logger LOG =
            System.getLogger(ServerTransactionTimeout.class.getName());

    /** Finds a name in the server's naming service. */
    @FunctionalInterface
    interface Lookup {
        /**
         * @return what is bound there
         * @throws Exception when nothing is, or there is no naming service
         */
        Object lookup(String name) throws Exception;
    }

    private ServerTransactionTimeout() {}

    /**
     * @return the timeout a new transaction gets on this server (zero: none), and which runtime
     *     said so; empty when no runtime the library knows answers
     */
    public static Optional<TransactionTimeout> read() {
        return read(name -> new InitialContext().lookup(name));
    }

    static Optional<TransactionTimeout> read(Lookup jndi) {
        Optional<TransactionTimeout> read =
                ask("Open Liberty", jndi, LIBERTY_UOW_MANAGER, ServerTransactionTimeout::liberty);
        if (read.isEmpty()) {
            read =
                    ask(
                            "WildFly",
                            jndi,
                            WILDFLY_TRANSACTION_MANAGER,
                            ServerTransactionTimeout::wildFly);
        }
        if (read.isEmpty()) {
            read =
                    ask(
                            "Payara",
                            jndi,
                            PAYARA_TRANSACTION_MANAGER,
                            ServerTransactionTimeout::payara);
        }
        return read;
    }

    /** Reads seconds from what is bound at a name. */
    @FunctionalInterface
    private interface Reading {
        int seconds(Object bound) throws Exception;
    }

    private static Optional<TransactionTimeout> ask(
            String runtime, Lookup jndi, String name, Reading reading) {
        Object bound;
        try {
            bound = jndi.lookup(name);
        } catch (Exception | LinkageError e) {
            return Optional.empty();
        }
        if (bound == null) {
            return Optional.empty();
        }
        try {
            int seconds = reading.seconds(bound);
            if (seconds < 0) {
                return Optional.empty();
            }
            return Optional.of(TransactionTimeout.readFrom(Duration.ofSeconds(seconds), runtime));
        } catch (Exception | LinkageError e) {
            Throwable cause = e instanceof InvocationTargetException t ? t.getCause() : e;
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "idemkit could not read the transaction timeout from "
                                    + name
                                    + " ("
                                    + bound.getClass().getName()
                                    + ")",
                    cause);
            return Optional.empty();
        }
    }

    /**
     * {@code runUnderUOW(UOW_TYPE_GLOBAL_TRANSACTION, false, action)}, where the action asks {@code
     * getUOWTimeout()} of the transaction it runs in; the empty transaction then commits.
     */
    private static int liberty(Object uowManager) throws Exception {
        Method timeout = publicMethod(uowManager.getClass(), "getUOWTimeout", 0);
        Method run = publicMethod(uowManager.getClass(), "runUnderUOW", 3);
        Class<?> action = run.getParameterTypes()[2];
        int global = run.getDeclaringClass().getField("UOW_TYPE_GLOBAL_TRANSACTION").getInt(null);
        AtomicInteger seen = new AtomicInteger(-1);
        Object inTransaction =
                Proxy.newProxyInstance(
                        action.getClassLoader(),
                        new Class<?>[] {action},
                        (proxy, method, args) ->
                                switch (method.getName()) {
                                    case "run" -> {
                                        seen.set((Integer) timeout.invoke(uowManager));
                                        yield null;
                                    }
                                    case "hashCode" -> System.identityHashCode(proxy);
                                    case "equals" -> proxy == args[0];
                                    case "toString" -> "idemkit's transaction timeout probe";
                                    default -> null;
                                });
        run.invoke(uowManager, global, false, inTransaction);
        return seen.get();
    }

    /** {@code getTransactionTimeout()}: this thread's next timeout, else the global default. */
    private static int wildFly(Object transactionManager) throws Exception {
        return (Integer)
                publicMethod(transactionManager.getClass(), "getTransactionTimeout", 0)
                        .invoke(transactionManager);
    }

    /**
     * {@code begin()}, then {@code getTransactionRemainingTimeout()}, then {@code rollback()}: a
     * transaction's remaining time is counted in whole seconds, so at once it is the timeout.
     */
    private static int payara(Object transactionManager) throws Exception {
        Class<?> type = transactionManager.getClass();
        Method remaining = publicMethod(type, "getTransactionRemainingTimeout", 0);
        Method begin = publicMethod(type, "begin", 0);
        Method rollback = publicMethod(type, "rollback", 0);
        begin.invoke(transactionManager);
        try {
            return (Integer) remaining.invoke(transactionManager);
        } finally {
            rollback.invoke(transactionManager);
        }
    }

    /**
     * A public method of a public class or interface of {@code type}'s hierarchy, so that it can be
     * called whatever the visibility of the runtime's implementation class.
     */
    static Method publicMethod(Class<?> type, String name, int parameters)
            throws NoSuchMethodException {
        Deque<Class<?>> pending = new ArrayDeque<>();
        Set<Class<?>> seen = new HashSet<>();
        pending.add(type);
        while (!pending.isEmpty()) {
            Class<?> c = pending.poll();
            if (!seen.add(c)) {
                continue;
            }
            if (Modifier.isPublic(c.getModifiers())) {
                for (Method m : c.getDeclaredMethods()) {
                    if (m.getName().equals(name)
                            && m.getParameterCount() == parameters
                            && Modifier.isPublic(m.getModifiers())
                            && !Modifier.isStatic(m.getModifiers())) {
                        return m;
                    }
                }
            }
            if (c.getSuperclass() != null) {
                pending.add(c.getSuperclass());
            }
            pending.addAll(java.util.List.of(c.getInterfaces()));
        }
        throw new NoSuchMethodException(type.getName() + "." + name);
    }
}
