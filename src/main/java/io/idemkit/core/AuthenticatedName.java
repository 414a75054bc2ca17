package io.idemkit.core;

import java.security.Principal;
import java.util.Optional;
import java.util.Set;

/**
 * The name of an authenticated caller, or nothing for an anonymous one: no principal, a principal
 * without a name or with a blank one, or the principal a runtime gives an unauthenticated caller:
 * Open Liberty's {@value #LIBERTY_UNAUTHENTICATED}, WildFly's (Elytron's) {@value
 * #WILDFLY_ANONYMOUS} and Payara's {@value #PAYARA_ANONYMOUS}, each in the case that runtime writes
 * it (seen through CDI's built-in {@code Principal} in {@code MethodCallersPrincipalIT}). A user
 * registered under one of these names counts as anonymous too. The one rule for the scope (C5) and
 * for the admin API. Thread-safe.
 */
public final class AuthenticatedName {

    /** The name Open Liberty gives the principal of an unauthenticated caller. */
    static final String LIBERTY_UNAUTHENTICATED = "UNAUTHENTICATED";

    /** The name WildFly (Elytron) gives the principal of an unauthenticated caller. */
    static final String WILDFLY_ANONYMOUS = "anonymous";

    /** The name Payara gives the principal of an unauthenticated caller. */
    static final String PAYARA_ANONYMOUS = "ANONYMOUS";

    private static final Set<String> ANONYMOUS_NAMES =
            Set.of(LIBERTY_UNAUTHENTICATED, WILDFLY_ANONYMOUS, PAYARA_ANONYMOUS);

    private AuthenticatedName() {}

    /**
     * @param principal the caller's principal, or {@code null} when the runtime has none
     * @return the principal's name, or empty when the caller is anonymous
     */
    public static Optional<String> of(Principal principal) {
        String name = principal == null ? null : principal.getName();
        if (name == null || name.isBlank() || ANONYMOUS_NAMES.contains(name)) {
            return Optional.empty();
        }
        return Optional.of(name);
    }
}
