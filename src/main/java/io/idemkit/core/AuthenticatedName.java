package io.idemkit.core;

import java.security.Principal;
import java.util.Optional;

/**
 * The name of an authenticated caller, or nothing for an anonymous one: no principal, a principal
 * without a name or with a blank one, or the principal Open Liberty gives an unauthenticated caller
 * (named {@value #LIBERTY_UNAUTHENTICATED}). The one rule for the scope (C5) and for the admin API.
 * Thread-safe.
 */
public final class AuthenticatedName {

    /** The name Open Liberty gives the principal of an unauthenticated caller. */
    static final String LIBERTY_UNAUTHENTICATED = "UNAUTHENTICATED";

    private AuthenticatedName() {}

    /**
     * @param principal the caller's principal, or {@code null} when the runtime has none
     * @return the principal's name, or empty when the caller is anonymous
     */
    public static Optional<String> of(Principal principal) {
        String name = principal == null ? null : principal.getName();
        if (name == null || name.isBlank() || LIBERTY_UNAUTHENTICATED.equals(name)) {
            return Optional.empty();
        }
        return Optional.of(name);
    }
}
