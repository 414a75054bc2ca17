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
 * The default configuration, no scope source (C5): the method surface keeps authenticated callers
 * apart by their principal, as the HTTP surface does.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MethodCallersIT extends MethodCallersContract {

    @Test
    void anonymousCallersWithTheSameArguments_shareOneKeySpace() {
        Reply first = bookAnonymously();
        Reply second = bookAnonymously();

        assertThat(first.status()).as(first.text()).isEqualTo(200);
        assertThat(second.text()).isEqualTo(first.text());
    }

    @Deployment(testable = false)
    static WebArchive application() {
        return application("method-callers", "");
    }
}
