package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.Principal;
import org.junit.jupiter.api.Test;

/** Who counts as anonymous, for the scope (C5) and the admin API alike. */
class AuthenticatedNameTest {

    private static Principal named(String name) {
        return () -> name;
    }

    @Test
    void namedPrincipal_isItsName() {
        assertThat(AuthenticatedName.of(named("tenant-A"))).contains("tenant-A");
    }

    @Test
    void nameWithSurroundingSpaces_isKeptAsIs() {
        assertThat(AuthenticatedName.of(named(" tenant-A "))).contains(" tenant-A ");
    }

    @Test
    void noPrincipal_isAnonymous() {
        assertThat(AuthenticatedName.of(null)).isEmpty();
    }

    @Test
    void principalWithoutAName_isAnonymous() {
        assertThat(AuthenticatedName.of(named(null))).isEmpty();
    }

    @Test
    void blankName_isAnonymous() {
        assertThat(AuthenticatedName.of(named(""))).isEmpty();
        assertThat(AuthenticatedName.of(named(" \t"))).isEmpty();
    }

    @Test
    void libertysUnauthenticatedPrincipal_isAnonymous() {
        assertThat(AuthenticatedName.of(named("UNAUTHENTICATED"))).isEmpty();
    }

    @Test
    void unauthenticatedInAnotherCase_isAName() {
        // Liberty spells it in capitals; a user may be called anything else.
        assertThat(AuthenticatedName.of(named("unauthenticated"))).contains("unauthenticated");
    }

    @Test
    void wildflysAndPayarasAnonymousPrincipals_areAnonymous() {
        assertThat(AuthenticatedName.of(named("anonymous"))).isEmpty();
        assertThat(AuthenticatedName.of(named("ANONYMOUS"))).isEmpty();
        assertThat(AuthenticatedName.of(named("Anonymous"))).contains("Anonymous");
    }
}
