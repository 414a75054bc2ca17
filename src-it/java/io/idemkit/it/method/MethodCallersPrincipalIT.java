package io.idemkit.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code idemkit.scope-source=principal} (C5): the method surface scopes each call by the caller's
 * principal, and the calls run (the built-in {@code Principal} is read, never destroyed).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MethodCallersPrincipalIT extends MethodCallersContract {

    /**
     * Each runtime names its anonymous caller's principal (Liberty gives none to CDI, WildFly
     * "anonymous", Payara "ANONYMOUS"): none of them is an identity to scope by (C5).
     */
    @Test
    void anAnonymousCaller_isRefused_notScopedByTheRuntimesAnonymousName() {
        Reply anonymous = bookAnonymously();

        assertThat(anonymous.status()).as(anonymous.text()).isEqualTo(409);
        assertThat(anonymous.text()).isEqualTo("IdempotencyScopeUnavailableException");
    }

    @Deployment(testable = false)
    static WebArchive application() {
        return application("method-callers-principal", "idemkit.scope-source=principal\n");
    }
}
