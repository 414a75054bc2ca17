package io.idemkit.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.method.problems.runtime.AnyRuntimeFailure;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The library's mappers answer for an {@code @Idempotent} EJB or CDI bean that throws (C7.5), next
 * to an application mapper of {@code RuntimeException}.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MethodProblemsIT extends MethodProblemsScenarios {

    @Deployment(testable = false)
    static WebArchive application() {
        return application("method-problems", AnyRuntimeFailure.class);
    }

    @Test
    void duplicateOfARunningEjbCall_is423ProblemWithRetryAfter() throws Exception {
        Reply duplicate = duplicateOfARunningBooking();

        assertThat(duplicate.status()).as("%s", duplicate).isEqualTo(423);
        assertThat(duplicate.type()).startsWith("application/problem+json");
        assertThat(duplicate.json().getString("type")).isEqualTo("urn:idemkit:in-progress");
        assertThat(duplicate.json().getInt("status")).isEqualTo(423);
        // The first call's lease (30 s by default) less the little it has run.
        assertThat(Integer.parseInt(duplicate.retryAfter())).isBetween(1, 30);
        assertThat(duplicate.body()).doesNotContain("Exception");
    }

    @Test
    void callWithoutKey_is400MissingKey() throws Exception {
        Reply missing = post("charge", null, 10);

        assertThat(missing.status()).as("%s", missing).isEqualTo(400);
        assertThat(missing.type()).startsWith("application/problem+json");
        assertThat(missing.json().getString("type")).isEqualTo("urn:idemkit:missing-key");
        assertThat(missing.body()).doesNotContain("Charges");
    }
}
