package io.idemkit.owb;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.owb.Ledger.Receipt;
import io.idemkit.testsupport.Callers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who shares a key space on the method surface (C5), on OpenWebBeans with a security service that
 * reports the caller as TomEE's does: the twin of {@code io.idemkit.method.MethodCallerScopeTest}
 * on Weld.
 */
class CallerScopeTest {

    private final OwbDeployment deployment = new OwbDeployment();

    @BeforeEach
    void reset() {
        Ledger.reset();
        deployment.set("idemkit.store", "memory");
        deployment.with(Callers.openWebBeans());
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    private Ledger start() {
        return deployment.start(Ledger.class, Ledger.EventLog.class).select(Ledger.class).get();
    }

    @Test
    void withoutAScopeSource_twoUsersWithTheSameKey_eachGetTheirOwnResult() {
        Ledger ledger = start();

        Receipt alice = Callers.as("alice", () -> ledger.pay("k1", "acct", 100, "r1"));
        Receipt bob = Callers.as("bob", () -> ledger.pay("k1", "acct", 100, "r2"));
        Receipt aliceAgain = Callers.as("alice", () -> ledger.pay("k1", "acct", 100, "r3"));
        Receipt anonymous = ledger.pay("k1", "acct", 100, "r4");
        Receipt anonymousAgain = ledger.pay("k1", "acct", 100, "r5");

        assertThat(alice.run()).isEqualTo(1);
        assertThat(bob.run()).isEqualTo(2);
        assertThat(aliceAgain).isEqualTo(alice);
        assertThat(anonymous.run()).isEqualTo(3);
        assertThat(anonymousAgain).isEqualTo(anonymous);
    }

    @Test
    void scopeSourcePrincipal_runsTheCall_andKeepsUsersApart() {
        deployment.set("idemkit.scope-source", "principal");
        Ledger ledger = start();

        Receipt alice = Callers.as("alice", () -> ledger.pay("k2", "acct", 100, "r1"));
        Receipt bob = Callers.as("bob", () -> ledger.pay("k2", "acct", 100, "r2"));
        Receipt bobAgain = Callers.as("bob", () -> ledger.pay("k2", "acct", 100, "r3"));

        assertThat(alice.run()).isEqualTo(1);
        assertThat(bob.run()).isEqualTo(2);
        assertThat(bobAgain).isEqualTo(bob);
    }
}
