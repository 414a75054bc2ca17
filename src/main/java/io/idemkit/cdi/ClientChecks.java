package io.idemkit.cdi;

import io.idemkit.client.ClientSettingsReader;
import io.idemkit.client.IdempotentOperation;
import io.idemkit.client.OperationKey;
import io.idemkit.client.StepKey;
import io.idemkit.config.ConfigValues;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.Config;

/**
 * The client's deployment checks (C14): its {@code idemkit.client.*} keys, and where {@link
 * OperationKey} may stand. Stateless.
 */
final class ClientChecks {

    private ClientChecks() {}

    /**
     * @return every broken {@code idemkit.client.*} key, in the house format
     */
    static List<String> configProblems(Config config) {
        ConfigValues values = new ConfigValues(config);
        ClientSettingsReader.read(values);
        return values.problems();
    }

    /**
     * @return a definition error for each method with more than one {@link OperationKey} (or {@link
     *     StepKey}) parameter, or with one but no {@link IdempotentOperation} on it or its class
     */
    static <T> List<String> annotationProblems(AnnotatedType<T> type) {
        List<String> problems = new ArrayList<>();
        problems.addAll(annotationProblems(type, OperationKey.class, "an operation has one key"));
        problems.addAll(annotationProblems(type, StepKey.class, "a step has one name"));
        return problems;
    }

    private static <T> List<String> annotationProblems(
            AnnotatedType<T> type, Class<? extends Annotation> marker, String why) {
        List<String> problems = new ArrayList<>();
        String name = "@" + marker.getSimpleName();
        boolean onType = type.isAnnotationPresent(IdempotentOperation.class);
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            long keys =
                    method.getParameters().stream()
                            .filter(p -> p.isAnnotationPresent(marker))
                            .count();
            if (keys == 0) {
                continue;
            }
            String where =
                    method.getJavaMember().getDeclaringClass().getName()
                            + "."
                            + method.getJavaMember().getName()
                            + "()";
            if (keys > 1) {
                problems.add(
                        "More than one "
                                + name
                                + " parameter on "
                                + where
                                + ": "
                                + why
                                + "; combine the values into one argument");
            }
            if (!onType && !method.isAnnotationPresent(IdempotentOperation.class)) {
                problems.add(
                        name
                                + " on "
                                + where
                                + " has no effect without @IdempotentOperation on the method or"
                                + " its class");
            }
        }
        return problems;
    }
}
