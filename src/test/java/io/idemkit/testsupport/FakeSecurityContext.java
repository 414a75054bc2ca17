package io.idemkit.testsupport;

import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;
import java.util.Set;

/** A JAX-RS security context with a fixed principal (or none) and fixed roles. */
public final class FakeSecurityContext implements SecurityContext {

    private final Principal principal;
    private final Set<String> roles;

    private FakeSecurityContext(Principal principal, Set<String> roles) {
        this.principal = principal;
        this.roles = Set.copyOf(roles);
    }

    /**
     * @return a caller without a principal, as most runtimes report an anonymous one
     */
    public static FakeSecurityContext anonymous() {
        return new FakeSecurityContext(null, Set.of());
    }

    /**
     * @param name the principal's name, which may be {@code null}, blank or {@code UNAUTHENTICATED}
     *     (how Open Liberty reports an anonymous caller)
     * @param roles the roles the caller is in
     * @return a caller with a principal of that name
     */
    public static FakeSecurityContext of(String name, String... roles) {
        return new FakeSecurityContext(() -> name, Set.of(roles));
    }

    /**
     * @param principal the caller's principal, of any class (a token with claims, say)
     * @return a caller with that principal and no roles
     */
    public static FakeSecurityContext of(Principal principal) {
        return new FakeSecurityContext(principal, Set.of());
    }

    @Override
    public Principal getUserPrincipal() {
        return principal;
    }

    @Override
    public boolean isUserInRole(String role) {
        return roles.contains(role);
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String getAuthenticationScheme() {
        return principal == null ? null : BASIC_AUTH;
    }
}
