package io.idemkit.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.POST;
import org.junit.jupiter.api.Test;

/** The classification of JAX-RS resource methods (C7.4), through interfaces and superclasses. */
class JaxRsResourceMethodsTest {

    interface Api {
        @POST
        String create(String body);
    }

    interface Plain {
        String work(String input);
    }

    static class Resource implements Api {
        @Override
        public String create(String body) {
            return body;
        }
    }

    static class Service implements Plain, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public String work(String input) {
            return input;
        }

        public String other() {
            return "";
        }
    }

    static class SubService extends Service {
        private static final long serialVersionUID = 1L;
    }

    @Test
    void aDesignatorOnTheInterface_makesTheImplementationAResourceMethod() throws Exception {
        assertThat(
                        JaxRsResourceMethods.isResourceMethod(
                                Resource.class, Resource.class.getMethod("create", String.class)))
                .isTrue();
    }

    @Test
    void aBeanThatImplementsInterfaces_withoutDesignators_isNoResource() throws Exception {
        // Walking up through an interface once failed: an interface has no superclass.
        assertThat(
                        JaxRsResourceMethods.isResourceMethod(
                                Service.class, Service.class.getMethod("work", String.class)))
                .isFalse();
        assertThat(
                        JaxRsResourceMethods.isResourceMethod(
                                SubService.class, Service.class.getMethod("other")))
                .isFalse();
    }
}
