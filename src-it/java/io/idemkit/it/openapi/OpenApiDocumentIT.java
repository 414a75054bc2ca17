package io.idemkit.it.openapi;

import static io.idemkit.it.harness.ItRuntime.PAYARA;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;

import io.idemkit.it.client.ClientItSupport;
import io.idemkit.it.client.app.ClientApplication;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.openapi.app.DocumentedResource;
import java.net.URI;
import java.net.URL;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link OpenApiScenarios} on the runtime Arquillian manages (C6.12). */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = {WILDFLY, PAYARA},
        because =
                "the Open Liberty IT servers have no mpOpenAPI feature (their feature lists are"
                        + " shared by every IT): ClientMicroProfileLibertyIT runs these scenarios"
                        + " on a Liberty server of its own that has it")
class OpenApiDocumentIT extends OpenApiScenarios {

    @Deployment(testable = false)
    static WebArchive application() {
        return ClientItSupport.war(
                "openapi-document",
                war ->
                        war.addClass(ClientApplication.class)
                                .addPackage(DocumentedResource.class.getPackage()),
                FILTER_CONFIG);
    }

    @ArquillianResource URL base;

    @Override
    protected URI serverRoot() {
        return URI.create(base.toString()).resolve("/");
    }
}
