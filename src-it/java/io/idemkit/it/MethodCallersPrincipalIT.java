package io.idemkit.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code idemkit.scope-source=principal} (C5): the method surface scopes each call by the caller's
 * principal, and the calls run (the built-in {@code Principal} is read, never destroyed).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MethodCallersPrincipalIT extends MethodCallersContract {

    @Deployment(testable = false)
    static WebArchive application() {
        return application("method-callers-principal", "idemkit.scope-source=principal\n");
    }
}
