package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.cdi.TestDeployment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Named steps of an operation (C14.2): a request named inside its operation keeps its key whatever
 * ran before it, so a resumed run that skips finished work sends each remaining item with the key
 * it had, as Stripe's per-request key does.
 */
class StepsTest {

    private final ScriptedServer server = new ScriptedServer();
    private final Client client = server.client();
    private final TestDeployment deployment = new TestDeployment();

    @BeforeEach
    void setUp() {
        deployment.set("idemkit.store", "memory").set("idemkit.scope-mode", "single-tenant");
        OperationBeans.base = client.target("http://shop.example/api");
    }

    @AfterEach
    void tearDown() {
        deployment.close();
        client.close();
        assertThat(IdempotentOperations.active()).isFalse();
    }

    private void charge() {
        client.target("http://shop.example/api/charges").request().post(Entity.json("{}")).close();
    }

    private String lastKey() {
        List<String> keys = server.keys();
        return keys.get(keys.size() - 1);
    }

    /** A batch run: one charge per item, each item a step named by its id. */
    private List<String> runBatch(List<String> items) {
        int before = server.keys().size();
        IdempotentOperations.run(
                "batch-7",
                () ->
                        items.forEach(
                                item ->
                                        IdempotentOperations.step(
                                                item,
                                                () -> {
                                                    charge();
                                                    return null;
                                                })));
        return server.keys().subList(before, server.keys().size());
    }

    @Test
    void aResumedRunThatSkipsFinishedItems_sendsEachRemainingItemWithTheKeyItHad() {
        List<String> first = runBatch(List.of("item-1", "item-2", "item-3"));
        List<String> resumed = runBatch(List.of("item-2", "item-3"));

        assertThat(first).hasSize(3).doesNotHaveDuplicates();
        assertThat(resumed).containsExactly(first.get(1), first.get(2));
    }

    @Test
    void byPosition_withoutSteps_aResumedRunGivesTheSecondItemTheFirstsKey() {
        // What steps are for: numbered by position, the keys follow the order, not the items.
        IdempotentOperations.run("batch-7", () -> List.of(1, 2, 3).forEach(i -> charge()));
        List<String> first = server.keys();
        IdempotentOperations.run("batch-7", () -> List.of(2, 3).forEach(i -> charge()));

        assertThat(server.keys().get(3)).isEqualTo(first.get(0));
    }

    @Test
    void twoRequestsOfAStep_getTwoKeys_andNoStepKeyIsAKeyOutsideSteps() {
        IdempotentOperations.run(
                "batch-7",
                () -> {
                    charge();
                    IdempotentOperations.step(
                            "item-1",
                            () -> {
                                charge();
                                charge();
                                return null;
                            });
                    IdempotentOperations.step(
                            "item-2",
                            () -> {
                                charge();
                                return null;
                            });
                });

        assertThat(server.keys()).hasSize(4).doesNotHaveDuplicates().doesNotContainNull();
    }

    @Test
    void aStep_doesNotAdvanceTheOperationsOwnCount() {
        IdempotentOperations.run(
                "batch-7",
                () -> {
                    charge();
                    charge();
                });
        List<String> plain = server.keys();
        IdempotentOperations.run(
                "batch-7",
                () -> {
                    charge();
                    IdempotentOperations.step(
                            "item-1",
                            () -> {
                                charge();
                                return null;
                            });
                    charge();
                });

        List<String> keys = server.keys();
        assertThat(keys.get(2)).isEqualTo(plain.get(0));
        assertThat(keys.get(4)).isEqualTo(plain.get(1));
    }

    @Test
    void aRetryInsideAStep_sendsTheStepsKeyAgain() {
        String expected = runBatch(List.of("item-2")).get(0);
        server.then(() -> Response.status(503).build());
        ClientSettings settings = ClientSettings.defaults();
        IdempotentRetry retry =
                new IdempotentRetry(
                        settings, Clock.systemUTC(), d -> {}, new RetryPolicy(settings, () -> 0.5));

        IdempotentOperations.run(
                "batch-7",
                () ->
                        IdempotentOperations.step(
                                "item-2",
                                () ->
                                        retry.call(
                                                () ->
                                                        client.target(
                                                                        "http://shop.example/api/charges")
                                                                .request()
                                                                .post(Entity.json("{}")))));

        List<String> keys = server.keys();
        assertThat(keys.subList(1, 3)).containsOnly(expected);
    }

    @Test
    void aBlankStepName_runsNothing() {
        assertThatThrownBy(
                        () ->
                                IdempotentOperations.step(
                                        " ",
                                        () -> {
                                            charge();
                                            return null;
                                        }))
                .isInstanceOf(IdempotencyKeyMissingException.class);
        assertThat(server.keys()).isEmpty();
    }

    @Test
    void stepKeyOnABeanMethod_givesTheKeyTheProgrammaticStepGives() {
        String expected = runBatch(List.of("item-2")).get(0);
        var weld = deployment.start(Items.class);

        weld.select(Items.class).get().charge("batch-7", "item-2");

        assertThat(lastKey()).isEqualTo(expected);
    }

    @Test
    void aStepKeyWithoutTheBinding_failsTheDeployment() {
        assertThatThrownBy(() -> deployment.start(MisplacedStep.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining("@StepKey on " + MisplacedStep.class.getName() + ".send()");
    }

    @ApplicationScoped
    public static class Items {
        @IdempotentOperation
        public void charge(@OperationKey String batch, @StepKey String item) {
            OperationBeans.base.path("charges").request().post(Entity.json("{}")).close();
        }
    }

    @ApplicationScoped
    public static class MisplacedStep {
        public void send(@StepKey String item) {}
    }
}
