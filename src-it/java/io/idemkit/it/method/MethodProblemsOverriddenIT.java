package io.idemkit.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.method.problems.own.OwnInProgress;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An application that maps {@code IdempotencyInProgressException} itself, at the default priority,
 * replaces the library's mapper (C7.5); its mapper of {@code Exception} takes none of the others.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MethodProblemsOverriddenIT extends MethodProblemsScenarios {

    @Deployment(testable = false)
    static WebArchive application() {
        return application("method-problems-own", OwnInProgress.class);
    }

    @Test
    void duplicateOfARunningEjbCall_getsTheApplicationsOwnAnswer() throws Exception {
        Reply duplicate = duplicateOfARunningBooking();

        assertThat(duplicate.status()).as("%s", duplicate).isEqualTo(429);
        assertThat(duplicate.retryAfter()).isEqualTo("60");
        assertThat(duplicate.body()).isEqualTo("application: busy");
    }
}
