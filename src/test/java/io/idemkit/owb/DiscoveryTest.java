package io.idemkit.owb;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.owb.Ledger.Receipt;
import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.inject.se.SeContainer;
import jakarta.interceptor.Interceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The library's own bean archive on OpenWebBeans: its {@code META-INF/beans.xml} ({@code
 * annotated}) is what a runtime scans in {@code WEB-INF/lib}. The other tests list the library's
 * beans; this one lets OpenWebBeans find them, so that a bean missing its bean-defining annotation
 * would show here.
 */
class DiscoveryTest {

    private final OwbDeployment deployment = new OwbDeployment();

    @BeforeEach
    void resetCounts() {
        Ledger.reset();
    }

    @AfterEach
    void undeploy() {
        deployment.close();
    }

    @Test
    void libraryFoundThroughItsBeansXml_interceptsAnApplicationBean() {
        deployment.set("idemkit.scope-mode", "single-tenant").set("idemkit.store", "memory");

        SeContainer owb = deployment.discoverLibrary().start(Ledger.class, Ledger.EventLog.class);
        Ledger ledger = owb.select(Ledger.class).get();
        Receipt first = ledger.pay("discovered-1", "acct", 5, "r1");
        Receipt second = ledger.pay("discovered-1", "acct", 5, "r2");

        // The list the other tests deploy is what the library's archive holds (an interceptor is
        // no bean that getBeans returns; the replay below shows it is enabled).
        for (Class<?> listed : TestDeployment.LIBRARY_BEANS) {
            if (!listed.isAnnotationPresent(Interceptor.class)) {
                assertThat(owb.getBeanManager().getBeans(listed)).as(listed.getName()).hasSize(1);
            }
        }
        assertThat(owb.select(IdempotencyStore.class).get().name()).isEqualTo("memory");
        assertThat(second).isEqualTo(first);
        assertThat(Ledger.executions).hasValue(1);
        assertThat(Ledger.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }
}
