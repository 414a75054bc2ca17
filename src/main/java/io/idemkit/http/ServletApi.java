package io.idemkit.http;

/**
 * Whether the application can see the Servlet API, which decides how the end of a request releases
 * a claim nothing else ended (C6.7): {@link ServletRequestEnd} where it can, {@link
 * UnendedExecutions} where it cannot. One test, asked by the extension that registers the one and
 * by the surface that uses the other. Free of Servlet types, so that asking never loads them.
 */
public final class ServletApi {

    /** The Servlet API type whose visibility decides. */
    static final String REQUEST_TYPE = "jakarta.servlet.ServletRequest";

    private ServletApi() {}

    /**
     * @param loader the class loader that would have to load the Servlet API
     * @return whether it can, without initializing anything
     */
    public static boolean isVisible(ClassLoader loader) {
        try {
            Class.forName(REQUEST_TYPE, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
