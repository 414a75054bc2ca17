package io.idemkit.testsupport;

import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.spi.InitialContextFactory;

/**
 * A JNDI provider that knows the names a test binds in {@link #BOUND}, and no other: set {@link
 * Context#INITIAL_CONTEXT_FACTORY} to this class, and clear both after the test.
 */
public final class MapJndi implements InitialContextFactory {

    /** The names a lookup finds, and what it finds. */
    public static final Map<String, Object> BOUND = new ConcurrentHashMap<>();

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) {
        return (Context)
                Proxy.newProxyInstance(
                        Context.class.getClassLoader(),
                        new Class<?>[] {Context.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("lookup")
                                    && BOUND.containsKey(String.valueOf(args[0]))) {
                                return BOUND.get(String.valueOf(args[0]));
                            }
                            if (method.getName().equals("close")) {
                                return null;
                            }
                            throw new NameNotFoundException(
                                    args == null ? method.getName() : String.valueOf(args[0]));
                        });
    }
}
