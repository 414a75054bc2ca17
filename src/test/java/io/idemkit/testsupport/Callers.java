package io.idemkit.testsupport;

import java.security.Principal;
import java.util.function.Supplier;
import org.apache.webbeans.corespi.security.SimpleSecurityService;
import org.jboss.weld.security.spi.SecurityServices;

/**
 * The caller of the current thread, as a container's security service reports it to CDI's built-in
 * {@code Principal} bean: a test runs a call as a named user with {@link #as}, and hands the
 * container {@link #weld()} or {@link #openWebBeans()}. Outside {@link #as}, the caller is
 * anonymous as Open Liberty reports one: a principal named {@code UNAUTHENTICATED}.
 */
public final class Callers {

    /** The name Open Liberty gives an unauthenticated caller's principal. */
    public static final String LIBERTY_ANONYMOUS = "UNAUTHENTICATED";

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private Callers() {}

    /**
     * @param name the caller's name
     * @param call what the caller does
     * @return what the call returned
     */
    public static <T> T as(String name, Supplier<T> call) {
        String before = CURRENT.get();
        CURRENT.set(name);
        try {
            return call.get();
        } finally {
            CURRENT.set(before);
        }
    }

    /**
     * @return the current thread's caller, a new principal object on each call, as a container
     *     gives one per request
     */
    public static Principal current() {
        String name = CURRENT.get();
        String reported = name == null ? LIBERTY_ANONYMOUS : name;
        return () -> reported;
    }

    /**
     * @return Weld's security service, answering with {@link #current()}
     */
    public static SecurityServices weld() {
        return new SecurityServices() {
            @Override
            public Principal getPrincipal() {
                return current();
            }

            @Override
            public void cleanup() {}
        };
    }

    /**
     * @return the security service of OpenWebBeans, answering with {@link #current()}
     */
    public static SimpleSecurityService openWebBeans() {
        return new SimpleSecurityService() {
            @Override
            public Principal getCurrentPrincipal() {
                return current();
            }
        };
    }
}
