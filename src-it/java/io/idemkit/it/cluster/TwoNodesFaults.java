package io.idemkit.it.cluster;

import io.idemkit.it.faults.FaultScenarios;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Store faults on two Open Liberty servers (issue 44; C4.6, C4.7, C13): {@link FaultScenarios} on
 * {@link TwoNodes}' servers, node 0 (A) reaching PostgreSQL through a {@link
 * io.idemkit.it.harness.FaultProxy} that stalls or cuts its connections, node 1 (B) reaching it
 * directly; Liberty's usual data sources (the driver in a server {@code <library>}), the real
 * driver, the real database. No server of its own: it runs nested in {@link TwoNodesIT} ({@code
 * TwoNodesIT.Faults}), on its servers.
 */
abstract class TwoNodesFaults {

    private FaultScenarios scenarios;

    @BeforeEach
    void scenarios() {
        scenarios =
                new FaultScenarios(
                        TwoNodes.HTTP[0], TwoNodes.HTTP[1], TwoNodes.proxy, TwoNodes.database);
    }

    @Test
    void everyStoreConnectionStalled_aKeyedPostGets503WithinTheWaitTimeout_thenServesAgain()
            throws Exception {
        scenarios
                .everyStoreConnectionStalled_aKeyedPostGets503WithinTheWaitTimeout_thenServesAgain();
    }

    @Test
    void oneStalledConnection_costsNoOtherKeysLease_andTheirDuplicatesOnBWait() throws Exception {
        scenarios.oneStalledConnection_costsNoOtherKeysLease_andTheirDuplicatesOnBWait();
    }

    @Test
    void aNodeCutMidPayment_isToldBeforeTheOtherTakesOver_andThePaymentIsWrittenOnce()
            throws Exception {
        scenarios.aNodeCutMidPayment_isToldBeforeTheOtherTakesOver_andThePaymentIsWrittenOnce();
    }
}
