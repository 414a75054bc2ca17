package io.idemkit.it.method;

import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.method.app.MethodApplication;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/** The method surface with the in-memory store, on each runtime of the suite. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MethodSurfaceIT extends MethodSurfaceContract {

    @Deployment(testable = false)
    static WebArchive application() {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, "method-memory.war")
                        .addPackage(MethodApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.store=memory\nidemkit.scope-mode=single-tenant\n"),
                                "META-INF/microprofile-config.properties"));
    }

    @Override
    String expectedStore() {
        return "memory";
    }
}
