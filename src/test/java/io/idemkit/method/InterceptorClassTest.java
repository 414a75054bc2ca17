package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;

/** What Jakarta Interceptors requires of an interceptor class, and EJB containers rely on. */
class InterceptorClassTest {

    @Test
    void interceptorClass_hasAPublicNoArgConstructor_asPayarasEjbContainerNeeds() throws Exception {
        // Payara Micro 6 creates the interceptor of an EJB through it:
        // NoSuchMethodError "method 'void <init>()' not found" otherwise.
        assertThat(Modifier.isPublic(IdempotentInterceptor.class.getConstructor().getModifiers()))
                .isTrue();
    }
}
