package io.idemkit.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.annotation.Priority;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.core.Feature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The classes the runtime loads from the jar's service files, and that an application lists in
 * {@code getClasses()} when it turns service loading off, are the public ones of this package: a
 * name a user writes is never an internal one.
 */
class RestEntryPointsTest {

    private static List<String> listed(Class<?> service) throws IOException {
        try (InputStream in =
                RestEntryPointsTest.class
                        .getClassLoader()
                        .getResourceAsStream("META-INF/services/" + service.getName())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList();
        }
    }

    @Test
    void theServiceFiles_nameThisPackagesFeatures() throws IOException {
        assertThat(listed(DynamicFeature.class))
                .containsExactly(IdempotencyFeature.class.getName());
        assertThat(listed(Feature.class))
                .containsExactlyInAnyOrder(
                        IdempotencyAdminFeature.class.getName(),
                        IdempotencyExceptionMappers.class.getName());
    }

    /** RESTEasy's service loader keeps one feature per priority (Open Liberty's restfulWS-3.1). */
    @Test
    void theFeatures_haveAPriorityEachOfTheirOwn() {
        int mappers = IdempotencyExceptionMappers.class.getAnnotation(Priority.class).value();
        int admin = IdempotencyAdminFeature.class.getAnnotation(Priority.class).value();

        assertThat(mappers).isEqualTo(IdempotencyExceptionMappers.PRIORITY).isNotEqualTo(admin);
    }
}
