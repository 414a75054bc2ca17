package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.cdi.TestDeployment;
import io.idemkit.method.Beans.Flights;
import io.idemkit.testsupport.Callers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who shares a key space on the method surface (C5), on Weld with a security service that reports
 * the caller as a runtime's does: without a scope source, authenticated callers are kept apart by
 * their names, as on the HTTP surface, so that a derived key (the arguments) never hands one user
 * another's result; anonymous callers share one key space; and {@code scope-source=principal}
 * works.
 */
class MethodCallerScopeTest {

    private final TestDeployment deployment = new TestDeployment();
    private Flights flights;

    @BeforeEach
    void reset() {
        Beans.reset();
        deployment.set("idemkit.store", "memory");
        deployment.with(Callers.weld());
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    private void start() {
        flights = deployment.start(Flights.class, Beans.EventLog.class).select(Flights.class).get();
    }

    @Test
    void withoutAScopeSource_twoUsersWithTheSameArguments_eachGetTheirOwnResult() {
        start();

        String alice = Callers.as("alice", () -> flights.quote("F1", "S1"));
        String bob = Callers.as("bob", () -> flights.quote("F1", "S1"));
        String aliceAgain = Callers.as("alice", () -> flights.quote("F1", "S1"));

        assertThat(alice).isEqualTo("F1-S1-1");
        assertThat(bob).isEqualTo("F1-S1-2");
        assertThat(aliceAgain).isEqualTo(alice);
        assertThat(Beans.executions).hasValue(2);
    }

    @Test
    void withoutAScopeSource_anonymousCallersShareOneKeySpace() {
        start();

        String first = flights.quote("F2", "S2");
        String second = flights.quote("F2", "S2");

        assertThat(second).isEqualTo(first);
        assertThat(Beans.executions).hasValue(1);
    }

    @Test
    void scopeSourcePrincipal_runsTheCall_andKeepsUsersApart() {
        deployment.set("idemkit.scope-source", "principal");
        start();

        String alice = Callers.as("alice", () -> flights.quote("F3", "S3"));
        String bob = Callers.as("bob", () -> flights.quote("F3", "S3"));
        String bobAgain = Callers.as("bob", () -> flights.quote("F3", "S3"));

        assertThat(alice).isEqualTo("F3-S3-1");
        assertThat(bob).isEqualTo("F3-S3-2");
        assertThat(bobAgain).isEqualTo(bob);
    }
}
