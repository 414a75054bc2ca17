package io.idemkit.owb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.Idempotent;
import io.idemkit.cdi.MethodPolicies;
import io.idemkit.spi.IdempotencyKeyExtractor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.se.SeContainer;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.security.Principal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The key extractor a resource method names (C6.1), checked at deployment: the named bean is what
 * the filter pair gets, and a class that is no bean, or a method that names both a key header and
 * an extractor, fails the deployment with a message naming the method.
 */
class KeyExtractorSelectionTest {

    private final OwbDeployment deployment = new OwbDeployment();

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    @Test
    void theNamedExtractor_isTheApplicationsBean() {
        SeContainer owb = deployment.start(Orders.class, OrderReference.class);
        MethodPolicies policies = owb.select(MethodPolicies.class).get();

        IdempotencyKeyExtractor extractor =
                policies.keyExtractor(
                        Orders.class,
                        OrderReference.class.getName(),
                        IdempotencyKeyExtractor.class);

        assertThat(extractor.keyOf(request())).contains("from-the-bean");
    }

    @Test
    void aNamedExtractorThatIsNoBean_failsTheDeployment() {
        assertThatThrownBy(() -> deployment.start(Orders.class))
                .isInstanceOf(DeploymentException.class);
        assertThat(deployment.deploymentErrors())
                .contains("Invalid key source of " + Orders.class.getName() + ".create()")
                .contains(OrderReference.class.getName() + " is not a bean of the application");
    }

    @Test
    void aMethodNamingAKeyHeaderAndAnExtractor_failsTheDeployment() {
        assertThatThrownBy(() -> deployment.start(Confused.class, OrderReference.class))
                .isInstanceOf(DeploymentException.class);
        assertThat(deployment.deploymentErrors())
                .contains("keyHeader and keyExtractor are both set")
                .contains(Confused.class.getName());
    }

    private static IdempotencyKeyExtractor.Request request() {
        return new IdempotencyKeyExtractor.Request() {
            @Override
            public String method() {
                return "POST";
            }

            @Override
            public List<String> headers(String name) {
                return List.of();
            }

            @Override
            public Optional<byte[]> body() {
                return Optional.empty();
            }

            @Override
            public Optional<Principal> principal() {
                return Optional.empty();
            }
        };
    }

    /** The application's extractor. */
    @ApplicationScoped
    public static class OrderReference implements IdempotencyKeyExtractor {
        @Override
        public Optional<String> keyOf(Request request) {
            return Optional.of("from-the-bean");
        }
    }

    /** A resource whose method names the extractor. */
    @ApplicationScoped
    @Path("orders")
    public static class Orders {
        @POST
        @Idempotent(keyExtractor = OrderReference.class)
        public String create() {
            return "created";
        }
    }

    /** A resource method that names both sources of its key. */
    @ApplicationScoped
    @Path("confused")
    public static class Confused {
        @POST
        @Idempotent(keyExtractor = OrderReference.class, keyHeader = "X-Key")
        public String create() {
            return "created";
        }
    }
}
