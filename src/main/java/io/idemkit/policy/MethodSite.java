package io.idemkit.policy;

import java.util.List;
import java.util.Objects;

/**
 * What the deployment's checks need to know of one {@code @Idempotent} method besides its
 * annotations and keys: which surface sees it, and how its key would be derived. The CDI glue works
 * these facts out (with the surfaces' own rules), so that the checks stay plain code.
 *
 * @param ref the method, as seen on its bean class
 * @param resource whether it is a JAX-RS resource method, which the filter pair protects (C7.4)
 * @param transport the message transport whose listener method it is, a transport's to deliver
 *     (C11: a message-driven bean's {@code onMessage}; C17: an {@code @Incoming} method), or {@code
 *     null} for any other method
 * @param derived whether its key would be derived from all its arguments: no {@code IdempotencyKey}
 *     parameter (C7.1)
 * @param volatileLooking for a derived key, a description of every argument that looks as if it
 *     could change between retries; empty otherwise
 */
public record MethodSite(
        MethodRef ref,
        boolean resource,
        String transport,
        boolean derived,
        List<String> volatileLooking) {

    /** Checks and copies the components. */
    public MethodSite {
        Objects.requireNonNull(ref, "ref");
        volatileLooking = List.copyOf(volatileLooking);
    }

    /** The name of the Reactive Messaging transport (C17), as its wing declares it. */
    public static final String REACTIVE_MESSAGING = "reactive-messaging";

    /**
     * @return whether it is a message listener method, keyed by its message rather than its
     *     arguments
     */
    public boolean receivesMessages() {
        return transport != null;
    }

    /**
     * @return whether the method surface derives its key: neither a resource method nor a message
     *     listener, and no key parameter
     */
    boolean derivesItsKey() {
        return !resource && !receivesMessages() && derived;
    }
}
